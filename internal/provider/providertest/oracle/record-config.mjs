// Records what pi-ai's Azure configuration makes of its inputs, for providers/azure's table tests:
//
//   node internal/provider/providertest/oracle/record-config.mjs [TESTDATA_DIR [NODE_MODULES_DIR]]
//
// TESTDATA_DIR defaults to providers/azure/testdata, NODE_MODULES_DIR to the oracle's. It writes
// config.pi.json: for each case, the base URL resolveAzureBaseUrl returns (or its error) from the
// options, the environment and the model's baseUrl; and the deployment resolveDeploymentName
// returns for a model ID under AZURE_OPENAI_DEPLOYMENT_NAME_MAP.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [dirArg, modules = "/work/oracle/node_modules"] = process.argv.slice(2);
const dir = dirArg ?? join(here, "../../../../providers/azure/testdata");
for (const v of ["AZURE_OPENAI_BASE_URL", "AZURE_OPENAI_RESOURCE_NAME", "AZURE_OPENAI_DEPLOYMENT_NAME_MAP"]) delete process.env[v];
const { resolveAzureBaseUrl, resolveDeploymentName } = await import(
	pathToFileURL(join(modules, "@earendil-works/pi-ai/dist/api/azure-openai-config.js"))
);
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
writeFileSync(join(dir, "config.pi.json"), `${JSON.stringify({ baseURLs: out, deployments: dout }, null, 1)}\n`);
