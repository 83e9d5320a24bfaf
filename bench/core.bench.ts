/** Core figures: publish throughput and latency, memory during publishing, contract cascades. */
import { cascadeFigure, chain, fanOut } from "./core/cascade-figure.ts";
import { publishFigures } from "./core/publish-figure.ts";

export default async function core(): Promise<void> {
  await publishFigures();
  await cascadeFigure("chain", "c0 ← c1 ← … ← c999", chain(1000), 1000);
  await cascadeFigure("fanout", "1 → 100 → 100 each", fanOut(100), 3000);
}
