/**
 * IP literal classification for webhook destinations: which addresses are not the public
 * internet (private, loopback, link-local, CGNAT, metadata, multicast, reserved), for
 * IPv4 and IPv6, including IPv6 forms that embed an IPv4 address.
 */

export type AddressClass = "public" | "loopback" | "private" | "link-local" | "metadata" | "reserved";

/** Parses dotted-quad IPv4 (the URL parser has already normalised hex/octal/short forms). */
export function parseIpv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : undefined;
}

/** Parses an IPv6 literal (without brackets) into eight 16-bit groups. */
export function parseIpv6(host: string): number[] | undefined {
  let text = host.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4 || lastColon < 0) return undefined;
    tail = [((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0)];
    // Keep "::" if the IPv4 part follows it; otherwise drop the colon before the IPv4 part.
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const group = (part: string): number[] | undefined => {
    if (part === "") return [];
    const groups = part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
    return groups.every((g) => Number.isInteger(g)) ? groups : undefined;
  };
  const head = group(halves[0] ?? "");
  const rest = halves.length === 2 ? group(halves[1] ?? "") : [];
  if (!head || !rest) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1) return known === 8 ? [...head, ...tail] : undefined;
  if (known > 7) return undefined;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

const ipv4Value = (bytes: number[]): number => bytes.reduce((acc, b) => acc * 256 + b, 0);
const inV4 = (ip: number[], base: number[], bits: number): boolean => {
  const block = 2 ** (32 - bits);
  return Math.floor(ipv4Value(ip) / block) === Math.floor(ipv4Value(base) / block);
};

const V4_RANGES: [number[], number, AddressClass][] = [
  [[169, 254, 169, 254], 32, "metadata"],
  [[100, 100, 100, 200], 32, "metadata"], // Alibaba Cloud metadata
  [[0, 0, 0, 0], 8, "reserved"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "private"], // CGNAT
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link-local"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"],
  [[192, 0, 2, 0], 24, "reserved"],
  [[192, 88, 99, 0], 24, "reserved"],
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "reserved"],
  [[198, 51, 100, 0], 24, "reserved"],
  [[203, 0, 113, 0], 24, "reserved"],
  [[224, 0, 0, 0], 4, "reserved"], // multicast
  [[240, 0, 0, 0], 4, "reserved"], // reserved and broadcast
];

export function classifyIpv4(ip: number[]): AddressClass {
  for (const [base, bits, kind] of V4_RANGES) if (inV4(ip, base, bits)) return kind;
  return "public";
}

const embeddedV4 = (g: number[]): number[] => [
  (g[6] ?? 0) >> 8,
  (g[6] ?? 0) & 255,
  (g[7] ?? 0) >> 8,
  (g[7] ?? 0) & 255,
];

export function classifyIpv6(g: number[]): AddressClass {
  const [a = 0, b = 0] = g;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  if (zeroUpTo(8)) return "reserved";
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d)
  // and NAT64 (64:ff9b::a.b.c.d): judge the IPv4 address they carry.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return classifyIpv4(embeddedV4(g));
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return classifyIpv4(embeddedV4(g));
  if (a === 0x64 && b === 0xff9b) return classifyIpv4(embeddedV4(g));
  if (a === 0x2002) return classifyIpv4([b >> 8, b & 255, (g[2] ?? 0) >> 8, (g[2] ?? 0) & 255]); // 6to4
  if (a === 0xfd00 && b === 0x0ec2) return "metadata"; // AWS IMDS over IPv6 (fd00:ec2::254)
  if ((a & 0xffc0) === 0xfe80) return "link-local";
  if ((a & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated by RFC 3879, still routed inside sites)
  if ((a & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((a & 0xff00) === 0xff00) return "reserved"; // multicast
  if (a === 0x2001 && b === 0x0db8) return "reserved"; // documentation
  if (a === 0x2001 && b === 0) return "reserved"; // Teredo: hides an IPv4 address
  if (a === 0x0100 && zeroUpTo(4)) return "reserved"; // discard-only
  return "public";
}
