import { endpoint, NoInput, Unchecked } from "../endpoint.ts";
import { CreateTokenInput, RevokeTokensInput } from "../tokens.ts";

export const auth = {
  operatorToken: endpoint({ method: "GET", path: "/operator-token", input: NoInput, output: Unchecked }),
  list: endpoint({ method: "GET", path: "/tokens", input: NoInput, output: Unchecked }),
  createToken: endpoint({ method: "POST", path: "/tokens", input: CreateTokenInput, output: Unchecked, status: 201 }),
  revoke: endpoint({ method: "DELETE", path: "/tokens/:name", input: RevokeTokensInput, output: Unchecked }),
};
