import { z } from "zod";
import { endpoint, NoInput } from "../endpoint.ts";
import { CreateTokenInput, IssuedToken, OperatorToken, RevokeTokensInput, TokensRevoked, TokenView } from "../tokens.ts";

export const auth = {
  // Not under /api/tokens/: that path's :name segment revokes tokens, and 'operator' is a name there.
  operatorToken: endpoint({ method: "GET", path: "/operator-token", input: NoInput, output: OperatorToken }),
  list: endpoint({ method: "GET", path: "/tokens", input: NoInput, output: z.array(TokenView) }),
  createToken: endpoint({ method: "POST", path: "/tokens", input: CreateTokenInput, output: IssuedToken, status: 201 }),
  revoke: endpoint({ method: "DELETE", path: "/tokens/:name", input: RevokeTokensInput, output: TokensRevoked }),
};
