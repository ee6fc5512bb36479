/** Pure: when the authorization checks (./auth.ts, ../modern/auth-rules.ts) judge a server at all, said once for their docs. */
export const AUTH_APPLIES = 'judged only when the endpoint answers a POSTed initialize without credentials (the kit sends none of the configured headers) with 401 or a Bearer challenge; any other server is not applicable'
