package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the per-client limits tell clients apart: networks by prefix, X-Forwarded-For from trusted proxies only. Dials nothing. */
class ClientIdentityTest {

  static ClientIdentity identity(JsonObject clients) {
    return new ClientIdentity(ClientSettings.from(clients));
  }

  @Test
  void addresses_count_as_their_24_or_64_network_by_default() {
    ClientIdentity id = identity(null);
    assertEquals("127.0.0.0/24", id.network("127.0.0.2"));
    assertEquals("127.0.0.0/24", id.network("127.0.0.254"));
    assertEquals("203.0.113.0/24", id.network("203.0.113.77"));
    assertEquals("2001:db8:1:2::/64", id.network("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
    assertEquals("2001:db8:1:2::/64", id.network("[2001:db8:1:2::1]"));
    assertEquals("::/64", id.network("0:0:0:0:0:0:0:1"));
    // an IPv4-mapped IPv6 address (a dual-stack socket) is its IPv4 address
    assertEquals("198.51.100.0/24", id.network("::ffff:198.51.100.9"));
    // anything else (no peer address) is counted as it is
    assertEquals("", id.network(""));
  }

  @Test
  void the_prefix_lengths_come_from_the_config() {
    ClientIdentity id = identity(new JsonObject().put("ipv4Prefix", 32).put("ipv6Prefix", 48));
    assertEquals("127.0.0.2/32", id.network("127.0.0.2"));
    assertEquals("2001:db8:1::/48", id.network("2001:db8:1:2::1"));
    assertEquals("10.0.0.0/8", identity(new JsonObject().put("ipv4Prefix", 8)).network("10.200.3.4"));
    assertEquals("10.2.0.0/20", identity(new JsonObject().put("ipv4Prefix", 20)).network("10.2.15.4"));
  }

  @Test
  void forwarded_for_is_ignored_without_trusted_proxies() {
    ClientIdentity id = identity(null);
    assertEquals("127.0.0.2", id.address("127.0.0.2", List.of("203.0.113.7")));
  }

  @Test
  void from_a_trusted_proxy_the_right_most_untrusted_address_is_the_client() {
    ClientIdentity id = identity(new JsonObject().put("trustedProxies", new JsonArray().add("10.0.0.0/8").add("::1")));
    // a peer that is no proxy: its own address, whatever it writes
    assertEquals("127.0.0.2", id.address("127.0.0.2", List.of("203.0.113.7")));
    // the proxy's peer is the last hop; what the client wrote left of it is not believed
    assertEquals("203.0.113.7", id.address("10.1.1.1", List.of("198.51.100.1, 203.0.113.7")));
    // proxies in a chain are skipped from the right, headers taken in order
    assertEquals("203.0.113.7", id.address("0:0:0:0:0:0:0:1", List.of("198.51.100.1", "203.0.113.7, 10.9.9.9")));
    assertEquals("2001:db8::5", id.address("10.1.1.1", List.of("[2001:db8::5]:4711, 10.2.2.2:80")));
    // every hop a proxy: the left-most one
    assertEquals("10.3.3.3", id.address("10.1.1.1", List.of("10.3.3.3, 10.2.2.2")));
    // a hop that is no address ends what is believed: the last address read
    assertEquals("10.2.2.2", id.address("10.1.1.1", List.of("203.0.113.7, unknown, 10.2.2.2")));
    // no header: the proxy itself
    assertEquals("10.1.1.1", id.address("10.1.1.1", List.of()));
  }

  @Test
  void a_trusted_proxy_that_is_no_address_or_network_is_refused_naming_the_key() {
    IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
        () -> ClientSettings.from(new JsonObject().put("trustedProxies", new JsonArray().add("proxy.internal"))));
    assertEquals("clients.trustedProxies: 'proxy.internal' is not an IP address or network (10.0.0.0/8, fd00::/8)", name.getMessage());
    IllegalArgumentException prefix = assertThrows(IllegalArgumentException.class,
        () -> ClientSettings.from(new JsonObject().put("trustedProxies", "10.0.0.0/33")));
    assertEquals("clients.trustedProxies: '10.0.0.0/33': the prefix length must be 0-32", prefix.getMessage());
    IllegalArgumentException v4 = assertThrows(IllegalArgumentException.class,
        () -> ClientSettings.from(new JsonObject().put("ipv4Prefix", 40)));
    assertEquals("clients.ipv4Prefix: must be a whole number from 0 to 32, got 40", v4.getMessage());
  }

  @Test
  void defaults_are_24_64_no_proxies_and_10_admin_failures_a_minute() {
    ClientSettings d = ClientSettings.DEFAULTS;
    assertEquals(24, d.ipv4Prefix());
    assertEquals(64, d.ipv6Prefix());
    assertEquals(List.of(), d.trustedProxies());
    assertEquals(10, d.adminFailuresPerMinute());
  }
}
