import { describe, expect, it } from "vitest";
import { createHostGuard, hostName, isLoopbackAddress, isLoopbackIPv4, originName } from "./host-guard.ts";

const guard = createHostGuard(["hub.example.com"]);
const check = (host: string | undefined, origin?: string) =>
  guard({ headers: { ...(host === undefined ? {} : { host }), ...(origin === undefined ? {} : { origin }) } });

const ALLOWED_HOSTS = [
  "localhost",
  "localhost:3000",
  "LOCALHOST:80",
  "127.0.0.1",
  "127.0.0.1:3000",
  "127.255.255.255:1",
  "127.1.2.3",
  "127.0.0.0:65535",
  "[::1]",
  "[::1]:3000",
  "hub.example.com",
  "HUB.example.com:443",
];

const REFUSED_HOSTS = [
  "",
  "127.attacker.example",
  "127.attacker.example:3000",
  "127.0.0.1.nip.io",
  "127.0.0.1.nip.io:3000",
  "localhost.evil.com",
  "localhost.",
  "localhost.:3000",
  "evil.localhost",
  "mylocalhost",
  "127.0.0.1.",
  "127.0.0",
  "127.1",
  "127.0.0.1.5",
  "127.0.0.256",
  "127.0.0.01",
  "0127.0.0.1",
  "0x7f.0.0.1",
  "2130706433",
  "128.0.0.1",
  "10.0.0.1",
  "0.0.0.0",
  "[::2]",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "::1",
  "localhost:3000:4000",
  "localhost:abc",
  "user@localhost",
  "localhost/x",
  "hub.example.com.evil.io",
  "sub.hub.example.com",
  "127.0.0.1 ",
  " localhost",
];

describe("host guard", () => {
  it.each(ALLOWED_HOSTS)("allows Host %j", (host) => {
    expect(check(host)).toBeNull();
  });

  it.each(REFUSED_HOSTS)("refuses Host %j", (host) => {
    expect(check(host)).toMatchObject({ field: "Host", rule: "allowed_host" });
  });

  it("refuses a request without a Host header", () => {
    expect(check(undefined)).toMatchObject({ field: "Host", rule: "allowed_host" });
  });

  it.each(["http://localhost:3000", "https://127.0.0.1", "http://127.9.9.9:1", "http://[::1]:3000", "https://hub.example.com", "HTTP://LOCALHOST"])(
    "allows Origin %j",
    (origin) => {
      expect(check("localhost:3000", origin)).toBeNull();
    },
  );

  it.each([
    "null",
    "",
    "http://127.attacker.example:3000",
    "http://127.0.0.1.nip.io",
    "http://localhost.evil.com",
    "http://evil.com",
    "file://localhost",
    "ws://localhost",
    "http://localhost/path",
    "http://user@localhost",
    "localhost:3000",
    "http://127.1",
    "http://[::2]",
  ])("refuses Origin %j", (origin) => {
    expect(check("localhost:3000", origin)).toMatchObject({ field: "Origin", rule: "allowed_origin" });
  });

  it("allows only what TEAMHUB_ALLOWED_HOSTS names, exactly", () => {
    const none = createHostGuard([]);
    expect(none({ headers: { host: "hub.example.com" } })).toMatchObject({ field: "Host" });
    expect(check("hub.example.com", "http://sub.hub.example.com")).toMatchObject({ field: "Origin" });
  });
});

describe("loopback listen addresses", () => {
  it.each(["127.0.0.1", "127.3.2.1", "localhost", "::1", "[::1]", "LOCALHOST"])("%j is loopback", (h) => {
    expect(isLoopbackAddress(h)).toBe(true);
  });
  it.each(["0.0.0.0", "::", "127.attacker.example", "127.0.0.1.nip.io", "localhost.evil.com", "192.168.1.2", "127.1", "127.0.0.256", ""])("%j is not", (h) => {
    expect(isLoopbackAddress(h)).toBe(false);
  });
});

describe("parsing", () => {
  it("keeps brackets and lower-cases names", () => {
    expect(hostName("[::1]:80")).toBe("[::1]");
    expect(hostName("LocalHost:1")).toBe("localhost");
    expect(originName("https://[::1]:3000")).toBe("[::1]");
    expect(originName("null")).toBeNull();
    expect(isLoopbackIPv4("127.0.0.1")).toBe(true);
    expect(isLoopbackIPv4("127.0.0.1x")).toBe(false);
  });
});
