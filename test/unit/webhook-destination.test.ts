import { describe, it } from "vitest";
import { checkDestination } from "../../src/webhooks/destination";
import { classifyIpv6, parseIpv6 } from "../../src/webhooks/ip-ranges";

const strict = { allowLoopback: false, allowedPorts: [] };
const dev = { allowLoopback: true, allowedPorts: [] };

describe("webhook destinations", () => {
  it("accepts public https URLs on the default port", ({ expect }) => {
    for (const url of [
      "https://hooks.example.com/in",
      "https://example.com:443/x?y=1",
      "https://8.8.8.8/hook",
      "https://[2606:4700::1111]/hook",
    ]) {
      expect(checkDestination(url, strict), url).toMatchObject({ ok: true });
    }
  });

  it("refuses plain http to the internet even when loopback is allowed", ({ expect }) => {
    const check = checkDestination("http://hooks.example.com/in", dev);
    expect(check).toMatchObject({ ok: false });
    expect(check.ok ? "" : check.reason).toMatch(/https/);
  });

  it("refuses other schemes, relative URLs and credentials", ({ expect }) => {
    for (const url of [
      "ftp://example.com/x",
      "javascript:alert(1)",
      "/relative",
      "https://user:pw@example.com/hook",
      "https://user@example.com/hook",
    ]) {
      expect(checkDestination(url, strict).ok, url).toBe(false);
    }
  });

  it("refuses private, CGNAT, link-local and metadata IPv4 literals", ({ expect }) => {
    for (const host of [
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "100.64.0.1",
      "169.254.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
    ]) {
      expect(checkDestination(`https://${host}/hook`, dev).ok, host).toBe(false);
    }
    expect(checkDestination("https://172.32.0.1/hook", strict).ok).toBe(true);
  });

  it("sees through the URL parser's IPv4 spellings", ({ expect }) => {
    for (const url of [
      "https://0xa9fea9fe/",
      "https://2852039166/",
      "https://0251.0376.0251.0376/",
      "https://127.1/",
    ]) {
      expect(checkDestination(url, strict).ok, url).toBe(false);
    }
  });

  it("refuses IPv6 loopback, link-local, unique-local and IPv4-embedding forms", ({ expect }) => {
    for (const host of [
      "[::1]",
      "[fe80::1]",
      "[fd00::1]",
      "[fc00::5]",
      "[fec0::1]",
      "[feff:ffff::1]",
      "[::ffff:169.254.169.254]",
      "[::ffff:10.0.0.1]",
      "[::ffff:127.0.0.1]",
      "[64:ff9b::a9fe:a9fe]",
      "[2002:c0a8:101::1]",
      "[fd00:ec2::254]",
      "[::]",
    ]) {
      expect(checkDestination(`https://${host}/hook`, strict).ok, host).toBe(false);
    }
  });

  it("allows loopback (http, any port) only when WEBHOOK_ALLOW_LOOPBACK is set", ({ expect }) => {
    for (const url of [
      "http://127.0.0.1:8123/hook",
      "http://localhost:9000/x",
      "http://[::1]:7000/",
      "https://127.0.0.1/",
    ]) {
      expect(checkDestination(url, dev).ok, url).toBe(true);
      const refused = checkDestination(url, strict);
      expect(refused.ok, url).toBe(false);
      expect(refused.ok ? "" : refused.reason).toMatch(/WEBHOOK_ALLOW_LOOPBACK/);
    }
  });

  it("refuses non-default ports outside the allow-list", ({ expect }) => {
    expect(checkDestination("https://example.com:8443/hook", strict)).toMatchObject({ ok: false });
    expect(
      checkDestination("https://example.com:8443/hook", { allowLoopback: false, allowedPorts: [8443] }),
    ).toMatchObject({ ok: true });
    expect(
      checkDestination("https://example.com:22/hook", { allowLoopback: false, allowedPorts: [8443] }),
    ).toMatchObject({ ok: false });
  });

  it("refuses metadata host names", ({ expect }) => {
    expect(checkDestination("https://metadata.google.internal/computeMetadata/v1/", strict).ok).toBe(false);
  });
});

describe("IPv6 parsing", () => {
  it("expands compressed forms and dotted tails", ({ expect }) => {
    expect(parseIpv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6("1:2:3:4:5:6:1.2.3.4")).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304]);
    expect(parseIpv6("1:::2")).toBeUndefined();
    expect(parseIpv6("1:2:3:4:5:6:7:8:9")).toBeUndefined();
  });

  it("classifies public IPv6 as public", ({ expect }) => {
    expect(classifyIpv6(parseIpv6("2606:4700:4700::1111") ?? [])).toBe("public");
  });
});
