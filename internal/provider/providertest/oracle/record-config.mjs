const { resolveAzureBaseUrl, resolveDeploymentName } = await import("/work/oracle/node_modules/@earendil-works/pi-ai/dist/api/azure-openai-config.js");
const cases = [
  ["resource root", {}, "https://res.openai.azure.com", {}],
  ["resource root slash", {}, "https://res.openai.azure.com///", {}],
  ["openai path", {}, "https://res.openai.azure.com/openai", {}],
  ["openai v1 kept", {}, "https://res.openai.azure.com/openai/v1", {}],
  ["responses path", {}, "https://res.cognitiveservices.azure.com/openai/v1/responses?api-version=x", {}],
  ["query dropped at root", {}, "https://res.openai.azure.com/?api-version=2024", {}],
  ["foundry host", {}, "https://x.services.ai.azure.com/", {}],
  ["upper-case host", {}, "https://RES.OpenAI.Azure.com", {}],
  ["other path kept", {}, "https://res.openai.azure.com/custom/", {}],
  ["deployments path kept", {}, "https://res.openai.azure.com/openai/deployments/d", {}],
  ["other host root kept", {}, "http://localhost:8080", {}],
  ["other host openai kept", {}, "http://localhost:8080/openai", {}],
  ["spaces trimmed", {}, "  https://res.openai.azure.com/openai  ", {}],
  ["env base url", { AZURE_OPENAI_BASE_URL: " https://env.openai.azure.com " }, "http://model.example/v1", {}],
  ["resource name", { AZURE_OPENAI_RESOURCE_NAME: "myres" }, "http://model.example/v1", {}],
  ["option resource over env", { AZURE_OPENAI_RESOURCE_NAME: "envres" }, "", { azureResourceName: "optres" }],
  ["option base over resource", { AZURE_OPENAI_RESOURCE_NAME: "envres" }, "", { azureBaseUrl: "https://opt.openai.azure.com/openai" }],
  ["blank option base falls through", { AZURE_OPENAI_BASE_URL: "https://env.openai.azure.com" }, "", { azureBaseUrl: "   " }],
  ["model base url", {}, "http://127.0.0.1:9/openai/v1/", {}],
  ["no base url", {}, "", {}],
  ["invalid", {}, "not a url", {}],
  ["invalid env", { AZURE_OPENAI_BASE_URL: "::" }, "", {}],
];
const out = [];
for (const [name, env, baseUrl, opts] of cases) {
  let want, err;
  try { want = resolveAzureBaseUrl({ id: "m", baseUrl }, { ...opts, env }); } catch (e) { err = e.message; }
  out.push({ name, env, modelBaseURL: baseUrl, baseURL: opts.azureBaseUrl ?? "", resourceName: opts.azureResourceName ?? "", want, err });
}
const dcases = [["none", "", "gpt-4o"], ["mapped", "gpt-4o=prod-4o", "gpt-4o"], ["spaces", " a=b , gpt-4o = d1 ,", "gpt-4o"], ["second equals", "gpt-4o=d=e", "gpt-4o"], ["empty half", "gpt-4o=,x=y", "gpt-4o"], ["blank key", " =d", ""], ["last wins", "gpt-4o=a,gpt-4o=b", "gpt-4o"], ["other model", "x=y", "gpt-4o"]];
const dout = dcases.map(([name, map, id]) => ({ name, map, id, want: resolveDeploymentName({ id }, { env: { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: map } }) }));
console.log(JSON.stringify({ baseURLs: out, deployments: dout }, null, 1));
