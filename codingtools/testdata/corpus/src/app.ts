export const x = 1;
// todo lowercase
export function Hello() { return 'hi'; }
