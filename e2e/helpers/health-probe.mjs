// A monitoring client in a thread of its own, so that what it measures is the hub and not the event
// loop of the test process, which is busy generating the load. One kept-alive connection, one request
// at a time, every `everyMs`; on a "stop" message it posts the latencies and failures and exits.
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { url, everyMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
const failures = [];
let on = true;
parentPort.once("message", () => (on = false));

const get = () =>
  new Promise((resolve) => {
    const req = http.get(`${url}/api/health`, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? null : `status ${res.statusCode}`));
    });
    req.on("error", (e) => resolve(e.message));
  });

while (on) {
  const t0 = performance.now();
  const failure = await get();
  latencies.push(performance.now() - t0);
  if (failure) failures.push(failure);
  await new Promise((r) => setTimeout(r, Math.max(0, everyMs - (performance.now() - t0))));
}
agent.destroy();
parentPort.postMessage({ latencies, failures });
