/** A benchmark that measured a wrong result measured nothing: checks throw, and the run exits non-zero. */
export function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`correctness check failed: ${what}`);
}

/** A POST to a hub the bench started, its JSON answer checked to be a success. */
export async function post(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json();
  check(res.ok, `POST ${url}: ${JSON.stringify(json)}`);
  return json;
}
