package dev.gpurent.service;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.netty.util.NetUtil;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code clients:} section of the configuration (keys, defaults, ranges: {@link ConfigSchema}): how the per-client limits
 * (live scenarios a client may hold, wrong admin tokens it may try) tell clients apart.
 *
 * @param ipv4Prefix             IPv4 clients in one network of this prefix length count as one
 *                               client (24: a /24, the smallest block commonly routed to one owner)
 * @param ipv6Prefix             the same for IPv6 (64: one /64 is what a single host or home gets)
 * @param trustedProxies         addresses or networks ({@code 10.0.0.0/8}) of reverse proxies in
 *                               front of the service: only a direct peer among them is believed
 *                               about {@code X-Forwarded-For}; none by default
 * @param adminFailuresPerMinute wrong admin tokens one client may send a minute; past it, every
 *                               admin request of that client is answered 429 until the minute ends
 */
public record ClientSettings(int ipv4Prefix, int ipv6Prefix, List<Network> trustedProxies, int adminFailuresPerMinute) {

  public static final ClientSettings DEFAULTS = from(null);

  /** A network: its first address's bytes (4 or 16) and prefix length. */
  public record Network(byte[] address, int prefix) {

    /** Whether {@code a} (4 or 16 bytes) lies in this network. */
    boolean contains(byte[] a) {
      return a.length == address.length && java.util.Arrays.equals(masked(a, prefix), masked(address, prefix));
    }
  }

  public static ClientSettings from(JsonObject clients) {
    ConfigSchema.Section c = ConfigSchema.section("clients", PlainValues.map(clients));
    List<Network> proxies = new ArrayList<>();
    for (String p : c.list("trustedProxies")) proxies.add(network("clients.trustedProxies", p));
    return new ClientSettings(c.whole("ipv4Prefix"), c.whole("ipv6Prefix"), List.copyOf(proxies), c.whole("adminFailuresPerMinute"));
  }

  /** An IP literal as 4 or 16 bytes (an IPv4-mapped IPv6 address as its 4), or null when it is none; never a DNS lookup. */
  static byte[] literal(String text) {
    if (text == null) return null;
    String t = text.trim();
    if (t.startsWith("[") && t.endsWith("]")) t = t.substring(1, t.length() - 1);
    int zone = t.indexOf('%');
    if (zone >= 0) t = t.substring(0, zone);
    byte[] b = NetUtil.createByteArrayFromIpAddressString(t);
    if (b != null && b.length == 16 && isMappedV4(b)) return java.util.Arrays.copyOfRange(b, 12, 16);
    return b;
  }

  /** {@code a} with every bit past the first {@code prefix} cleared: the first address of its network. */
  static byte[] masked(byte[] a, int prefix) {
    byte[] out = new byte[a.length];
    for (int bit = 0; bit < prefix; bit += 8) {
      int bits = Math.min(8, prefix - bit);
      out[bit / 8] = (byte) (a[bit / 8] & (0xff << (8 - bits)));
    }
    return out;
  }

  private static boolean isMappedV4(byte[] b) {
    for (int i = 0; i < 10; i++) if (b[i] != 0) return false;
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
  }

  private static Network network(String key, String text) {
    String[] parts = text.split("/", 2);
    byte[] a = literal(parts[0]);
    if (a == null) throw new IllegalArgumentException(key + ": '" + text + "' is not an IP address or network (10.0.0.0/8, fd00::/8)");
    int max = a.length * 8;
    int prefix = max;
    if (parts.length == 2) {
      try {
        prefix = Integer.parseInt(parts[1].trim());
      } catch (NumberFormatException e) {
        prefix = -1;
      }
      if (prefix < 0 || prefix > max) throw new IllegalArgumentException(key + ": '" + text + "': the prefix length must be 0-" + max);
    }
    return new Network(a, prefix);
  }

}
