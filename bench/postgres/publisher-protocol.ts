/**
 * What both publisher processes of the two-hubs figure share (./publisher-process.ts through the hub,
 * ./raw-publisher-process.ts without it): their argv, `url prefix count team warmUp`, and their exchange with the bench:
 * `warmUp` publishes, "ready", a line on stdin, then `count` publishes timed, and their wall time in ms printed.
 */
export const publisherArgs = () => {
  const [url, prefix, count, team, warmUp] = process.argv.slice(2);
  return { url, prefix, team, count: Number(count), warmUp: Number(warmUp) };
};

/** The data of publish `i` of process `prefix`: one of 20 artifacts, a `test-results` version. */
export const publishOf = (prefix: string, i: number) => ({
  id: `${prefix}-${i % 20}`,
  data: { total: 10, passed: i % 10, failed: 10 - (i % 10) },
});

export async function runPublisher(publish: (i: number) => Promise<unknown>, { count, warmUp }: { count: number; warmUp: number }): Promise<void> {
  // Warm the JIT and the connections outside the timed part.
  for (let i = 0; i < warmUp; i++) await publish(i);
  process.stdout.write("ready\n");
  await new Promise<void>((r) => process.stdin.once("data", () => r()));
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await publish(i);
  process.stdout.write(`${performance.now() - t0}\n`);
}
