package dev.gpurent.service;

import io.netty.util.NetUtil;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Who a request comes from, as the per-client limits count it ({@link ClientSettings}).
 *
 * <p>The address: the direct peer's, unless that peer is one of {@code clients.trustedProxies};
 * then {@code X-Forwarded-For} is read from the right (each proxy appends the address it heard
 * from) and the first address that is not itself a trusted proxy is the client. Anything left of
 * it was written by the client and proves nothing. Without trusted proxies the header is ignored,
 * or anyone could claim any address.
 *
 * <p>The client: the address's network ({@code clients.ipv4Prefix}, {@code clients.ipv6Prefix}),
 * since whoever holds one address usually holds its neighbours too: 127.0.0.2 and 127.0.0.3 are
 * one host, and an IPv6 host picks any of the 2^64 addresses of its /64.
 */
public final class ClientIdentity {

  static final String FORWARDED_FOR = "X-Forwarded-For";

  private final ClientSettings settings;

  public ClientIdentity(ClientSettings settings) {
    this.settings = settings;
  }

  /** The request's client address (see above), as text; "" when there is no peer address. */
  public String address(HttpServerRequest req) {
    var peer = req.remoteAddress();
    String direct = peer == null ? "" : peer.hostAddress();
    if (settings.trustedProxies().isEmpty()) return canonical(direct);
    return address(direct, req.headers().getAll(FORWARDED_FOR));
  }

  /** The client address given the direct peer and the {@code X-Forwarded-For} headers, in order. */
  public String address(String peer, List<String> forwardedFor) {
    byte[] direct = ClientSettings.literal(peer);
    if (direct == null || !trusted(direct)) return canonical(peer);
    List<String> hops = new ArrayList<>();
    for (String header : forwardedFor) {
      for (String hop : header.split(",")) hops.add(hop.trim());
    }
    String last = peer;
    for (int i = hops.size() - 1; i >= 0; i--) {
      byte[] hop = ClientSettings.literal(withoutPort(hops.get(i)));
      // a hop that is no address (garbage, "unknown") ends what can be believed: the last proxy's peer
      if (hop == null) break;
      last = hops.get(i);
      if (!trusted(hop)) break;
    }
    return canonical(withoutPort(last));
  }

  /** The client as the per-client limits count it: the address's network, {@code 203.0.113.0/24}; an unreadable address as it is. */
  public String network(String address) {
    byte[] a = ClientSettings.literal(address);
    if (a == null) return address == null ? "" : address;
    int prefix = a.length == 4 ? settings.ipv4Prefix() : settings.ipv6Prefix();
    return NetUtil.bytesToIpAddress(ClientSettings.masked(a, prefix)) + "/" + prefix;
  }

  /** The request's client, as {@link #network} names it. */
  public String client(HttpServerRequest req) {
    return network(address(req));
  }

  private boolean trusted(byte[] a) {
    for (ClientSettings.Network n : settings.trustedProxies()) {
      if (n.contains(a)) return true;
    }
    return false;
  }

  /** An address in one spelling ({@code 0:0:0:0:0:0:0:1} as {@code ::1}); anything else as it is. */
  private static String canonical(String address) {
    byte[] a = ClientSettings.literal(address);
    return a == null ? address : NetUtil.bytesToIpAddress(a);
  }

  /** {@code 1.2.3.4:5678} and {@code [::1]:80} without their ports (some proxies write them). */
  private static String withoutPort(String hop) {
    if (hop.startsWith("[")) {
      int end = hop.indexOf(']');
      return end < 0 ? hop : hop.substring(1, end);
    }
    int colon = hop.indexOf(':');
    return colon >= 0 && colon == hop.lastIndexOf(':') ? hop.substring(0, colon) : hop;
  }
}
