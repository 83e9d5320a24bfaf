/**
 * The publish workload through the service layer and as raw better-sqlite3 writes, interleaved: blocks of BLOCK
 * publishes on each side in turn, each side on a fresh database of its own in one directory, so a busy moment of the
 * machine touches both alike and the ratio stays the cost of the service layer (on a 2-core machine shared with other
 * work, two runs one after the other measured ratios that moved by a factor of two).
 */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { check } from "../lib/check.ts";
import { inTempDir, openHub, openRaw } from "../lib/temp-db.ts";
import { artifactId, type Workload } from "./publish-workload.ts";
import { rawPublisher } from "./raw-publish.ts";
import { SAMPLE_EVERY, createWatchers } from "./service-publish.ts";
import { verifyContractsCompleted, verifyPublished } from "./verify-publish.ts";

const BLOCK = 50;

export type Sides = { raw: Float64Array; service: Float64Array };

/** Latencies of each side's publishes; `sample` runs between service publishes, outside the timed section. */
export function interleavedPublishes(w: Workload, sample: () => void = () => {}): Promise<Sides> {
  return inTempDir(async (dir) => {
    const raw = openRaw(dir);
    const hub = openHub(dir);
    try {
      await createWatchers(hub, w);
      const rawPublish = rawPublisher(raw.raw);
      const out: Sides = { raw: new Float64Array(w.publishes.length), service: new Float64Array(w.publishes.length) };
      const wrong: string[] = [];
      for (let block = 0; block < w.publishes.length; block += BLOCK) {
        const end = Math.min(block + BLOCK, w.publishes.length);
        for (let i = block; i < end; i++) {
          const p = w.publishes[i];
          const t0 = performance.now();
          const version = rawPublish(p);
          out.raw[i] = performance.now() - t0;
          if (version !== p.version) wrong.push(`raw ${p.id}: v${version}, expected v${p.version}`);
        }
        for (let i = block; i < end; i++) {
          const p = w.publishes[i];
          const t0 = performance.now();
          const r = await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: p.id, type: p.type, data: p.data, derivedFrom: p.derivedFrom }));
          out.service[i] = performance.now() - t0;
          const pinned = p.pinned.map((x) => `${artifactId(x.artifact)}@v${x.version}`);
          if (r.version !== p.version || r.derivedFrom.join() !== pinned.join()) {
            wrong.push(`${p.id}: got v${r.version} from [${r.derivedFrom}], expected v${p.version} from [${pinned}]`);
          }
          if (i % SAMPLE_EVERY === 0) sample();
        }
      }
      check(wrong.length === 0, `${wrong.length} publishes returned the wrong version or inputs, e.g. ${wrong[0]}`);
      verifyPublished(raw.raw, w, "raw baseline");
      verifyPublished(hub.sqlite.reader.raw, w, "service");
      verifyContractsCompleted(hub.sqlite.reader.raw, w);
      return out;
    } finally {
      raw.close();
      await hub.close();
    }
  });
}
