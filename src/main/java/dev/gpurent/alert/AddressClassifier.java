package dev.gpurent.alert;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * Which addresses a webhook may be sent to: only those of the public internet. Refused are
 * loopback (127/8, ::1), unspecified (0/8, ::), link-local (169.254/16, fe80::/10), private
 * (10/8, 172.16/12, 192.168/16, the deprecated site-local fec0::/10), shared CGNAT space
 * (100.64/10), unique-local (fc00::/7), multicast (224/4, ff00::/8), the reserved, benchmarking
 * and documentation blocks (240/4, 198.18/15, 192.0.0/24, 192.0.2/24, 198.51.100/24,
 * 203.0.113/24, 2001:db8::/32, 100::/64), and this machine's own addresses. An IPv6 address that
 * carries an IPv4 one (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4
 * 2002::/16) is judged by the IPv4 address it carries; local NAT64 (64:ff9b:1::/48) and Teredo
 * (2001::/32, whose IPv4 address is hidden) are refused.
 *
 * <p>Pure: it reads the bytes of addresses it is given and never resolves or dials anything.
 */
public final class AddressClassifier {

  /** Why an address is refused. */
  public enum Refusal { LOOPBACK, UNSPECIFIED, LINK_LOCAL, PRIVATE, SHARED, UNIQUE_LOCAL, MULTICAST, RESERVED, OWN }

  private final Set<InetAddress> own;

  /** @param own this machine's addresses (every interface's), refused whatever their kind */
  public AddressClassifier(Set<InetAddress> own) {
    this.own = Set.copyOf(own);
  }

  /** Empty for a public address; otherwise why it is refused. */
  public Optional<Refusal> refusal(InetAddress address) {
    byte[] b = address.getAddress();
    if (own.contains(address)) return Optional.of(Refusal.OWN);
    if (b.length == 4) return Optional.ofNullable(v4(b));
    if (allZero(b, 0, 16)) return Optional.of(Refusal.UNSPECIFIED);
    if (allZero(b, 0, 15) && b[15] == 1) return Optional.of(Refusal.LOOPBACK);
    byte[] embedded = embeddedV4(b);
    if (embedded != null) {
      if (own.contains(v4Address(embedded))) return Optional.of(Refusal.OWN);
      return Optional.ofNullable(v4(embedded));
    }
    return Optional.ofNullable(v6(b));
  }

  private static Refusal v4(byte[] b) {
    int a0 = b[0] & 0xff, a1 = b[1] & 0xff, a2 = b[2] & 0xff;
    if (a0 == 0) return Refusal.UNSPECIFIED;
    if (a0 == 127) return Refusal.LOOPBACK;
    if (a0 == 169 && a1 == 254) return Refusal.LINK_LOCAL;
    if (a0 == 10 || (a0 == 172 && (a1 & 0xf0) == 16) || (a0 == 192 && a1 == 168)) return Refusal.PRIVATE;
    if (a0 == 100 && (a1 & 0xc0) == 64) return Refusal.SHARED;
    if (a0 >= 224 && a0 < 240) return Refusal.MULTICAST;
    if (a0 >= 240) return Refusal.RESERVED;  // 240/4 and the broadcast address
    if ((a0 == 198 && (a1 & 0xfe) == 18) || (a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2))
        || (a0 == 198 && a1 == 51 && a2 == 100) || (a0 == 203 && a1 == 0 && a2 == 113)) return Refusal.RESERVED;
    return null;
  }

  private static Refusal v6(byte[] b) {
    int w0 = word(b, 0), w1 = word(b, 2);
    if ((w0 & 0xffc0) == 0xfe80) return Refusal.LINK_LOCAL;
    if ((w0 & 0xffc0) == 0xfec0) return Refusal.PRIVATE;
    if ((w0 & 0xfe00) == 0xfc00) return Refusal.UNIQUE_LOCAL;
    if ((w0 & 0xff00) == 0xff00) return Refusal.MULTICAST;
    if (w0 == 0x0064 && w1 == 0xff9b && word(b, 4) == 0x0001) return Refusal.PRIVATE;  // local-use NAT64
    if (w0 == 0x2001 && (w1 == 0x0db8 || w1 == 0)) return Refusal.RESERVED;  // documentation, Teredo
    if (w0 == 0x0100 && allZero(b, 2, 8)) return Refusal.RESERVED;  // discard-only
    return null;
  }

  /** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or null. */
  private static byte[] embeddedV4(byte[] b) {
    if (allZero(b, 0, 10) && (word(b, 10) == 0xffff || word(b, 10) == 0)) return Arrays.copyOfRange(b, 12, 16);
    if (word(b, 0) == 0x0064 && word(b, 2) == 0xff9b && allZero(b, 4, 12)) return Arrays.copyOfRange(b, 12, 16);
    if (word(b, 0) == 0x2002) return Arrays.copyOfRange(b, 2, 6);
    return null;
  }

  private static InetAddress v4Address(byte[] b) {
    try {
      return InetAddress.getByAddress(b);
    } catch (UnknownHostException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  private static int word(byte[] b, int at) {
    return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
  }

  private static boolean allZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) return false;
    }
    return true;
  }

  /**
   * A host as a URL gives it, read as an IP literal without any lookup: an IPv6 address (with or
   * without brackets), or an IPv4 address in any form the C resolver takes ({@code 127.0.0.1},
   * {@code 127.1}, {@code 2130706433}, {@code 0x7f.1}, {@code 0177.0.0.1}); empty when it is a
   * name.
   *
   * @throws IllegalArgumentException when it looks numeric but is no address
   */
  public static Optional<InetAddress> literal(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    try {
      if (h.contains(":")) {
        // a colon makes it an IPv6 literal: InetAddress parses it without a lookup; a zone is refused
        if (h.contains("%") || !h.matches("[0-9A-Fa-f:.]+")) throw new IllegalArgumentException("not an IPv6 address");
        return Optional.of(InetAddress.getByName(h));
      }
      byte[] v4 = ipv4(h);
      return v4 == null ? Optional.empty() : Optional.of(InetAddress.getByAddress(v4));
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IP address", e);
    }
  }

  /**
   * The inet_aton forms: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x), the last part
   * filling the remaining bytes. Null when the last label is not numeric (a name); throws when it
   * is numeric but no address.
   */
  private static byte[] ipv4(String h) {
    String[] parts = h.split("\\.", -1);
    if (parts.length == 0 || !numeric(parts[parts.length - 1])) return null;
    if (parts.length > 4) throw new IllegalArgumentException("not an IPv4 address");
    long[] v = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      if (!numeric(parts[i])) throw new IllegalArgumentException("not an IPv4 address");
      v[i] = number(parts[i]);
    }
    long last = v[v.length - 1];
    int lastBytes = 5 - v.length;
    if (last >= 1L << (8 * lastBytes)) throw new IllegalArgumentException("not an IPv4 address");
    byte[] out = new byte[4];
    for (int i = 0; i < v.length - 1; i++) {
      if (v[i] > 255) throw new IllegalArgumentException("not an IPv4 address");
      out[i] = (byte) v[i];
    }
    for (int i = 0; i < lastBytes; i++) out[3 - i] = (byte) (last >>> (8 * i));
    return out;
  }

  private static boolean numeric(String part) {
    return part.matches("0[xX][0-9A-Fa-f]*|[0-9]+");
  }

  private static long number(String part) {
    String p = part.toLowerCase(java.util.Locale.ROOT);
    if (p.startsWith("0x")) return p.length() == 2 ? 0 : bounded(p.substring(2), 16);
    if (p.length() > 1 && p.startsWith("0")) {
      if (!p.matches("[0-7]+")) throw new IllegalArgumentException("not an IPv4 address");
      return bounded(p, 8);
    }
    return bounded(p, 10);
  }

  private static long bounded(String digits, int radix) {
    if (digits.length() > 12) throw new IllegalArgumentException("not an IPv4 address");
    return Long.parseLong(digits, radix);
  }
}
