package dev.gpurent.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Literal addresses only: nothing is resolved or dialled. */
class AddressClassifierTest {

  static InetAddress at(String literal) {
    return AddressClassifier.literal(literal).orElseThrow();
  }

  @Test
  void refuses_every_non_public_block_in_both_families_and_the_ipv6_forms_of_ipv4_ones() {
    AddressClassifier c = new AddressClassifier(Set.of());
    Map<String, AddressClassifier.Refusal> refused = new LinkedHashMap<>();
    for (String a : List.of("127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::1")) {
      refused.put(a, AddressClassifier.Refusal.LOOPBACK);
    }
    for (String a : List.of("0.0.0.0", "0.1.2.3", "::", "::ffff:0.0.0.0")) refused.put(a, AddressClassifier.Refusal.UNSPECIFIED);
    for (String a : List.of("169.254.169.254", "169.254.0.1", "fe80::1", "febf::1", "::ffff:169.254.169.254")) {
      refused.put(a, AddressClassifier.Refusal.LINK_LOCAL);
    }
    for (String a : List.of("10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.1.1", "::ffff:10.1.2.3",
        "::ffff:172.20.0.1", "2002:c0a8:101::1", "fec0::1", "64:ff9b:1::a00:1")) {
      refused.put(a, AddressClassifier.Refusal.PRIVATE);
    }
    for (String a : List.of("100.64.0.1", "100.127.255.255", "::ffff:100.100.100.100")) refused.put(a, AddressClassifier.Refusal.SHARED);
    for (String a : List.of("fc00::1", "fd12:3456:789a::1", "fdff:ffff::1")) refused.put(a, AddressClassifier.Refusal.UNIQUE_LOCAL);
    for (String a : List.of("224.0.0.1", "239.255.255.250", "ff02::1", "ff05::1:3", "::ffff:224.0.0.251")) {
      refused.put(a, AddressClassifier.Refusal.MULTICAST);
    }
    for (String a : List.of("240.0.0.1", "255.255.255.255", "198.18.0.1", "198.19.255.255", "192.0.0.8", "192.0.2.1", "198.51.100.1",
        "203.0.113.9", "2001:db8::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "100::1")) {
      refused.put(a, AddressClassifier.Refusal.RESERVED);
    }
    Map<String, AddressClassifier.Refusal> got = new LinkedHashMap<>();
    refused.keySet().forEach(a -> got.put(a, c.refusal(at(a)).orElse(null)));
    assertEquals(refused, got);
  }

  @Test
  void lets_public_addresses_through_including_the_edges_of_the_refused_blocks() {
    AddressClassifier c = new AddressClassifier(Set.of());
    for (String a : List.of("1.1.1.1", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.255.255",
        "192.169.0.1", "198.17.255.255", "223.255.255.255", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
        "2002:808:808::1", "2001:4860:4860::8888")) {
      assertEquals(Optional.empty(), c.refusal(at(a)), a);
    }
  }

  @Test
  void refuses_this_machines_own_addresses_however_public_and_in_either_form() {
    AddressClassifier c = new AddressClassifier(Set.of(at("93.184.216.34")));
    assertEquals(Optional.of(AddressClassifier.Refusal.OWN), c.refusal(at("93.184.216.34")));
    assertEquals(Optional.of(AddressClassifier.Refusal.OWN), c.refusal(at("::ffff:93.184.216.34")));
    assertEquals(Optional.of(AddressClassifier.Refusal.OWN), c.refusal(at("64:ff9b::5db8:d822")));
    assertEquals(Optional.empty(), c.refusal(at("93.184.216.35")));
  }

  @Test
  void reads_every_numeric_form_of_an_ipv4_address_as_the_c_resolver_does_and_leaves_names_alone() {
    for (String loopback : List.of("127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "0x7F.0.0.01")) {
      assertEquals("127.0.0.1", at(loopback).getHostAddress(), loopback);
    }
    assertEquals("0:0:0:0:0:0:0:1", at("[::1]").getHostAddress());
    assertEquals("127.0.0.1", at("[::ffff:7f00:1]").getHostAddress());
    for (String name : List.of("hooks.slack.com", "1.example", "internal.test", "localhost", "0x7f.example")) {
      assertEquals(Optional.empty(), AddressClassifier.literal(name), name);
    }
    for (String bad : List.of("1.2.3.4.5", "256.1.1.1", "1.2.3.256", "1.16777216", "08.1.1.1", "4294967296", "::1%eth0", "1::2::3")) {
      assertThrows(IllegalArgumentException.class, () -> AddressClassifier.literal(bad), bad);
    }
  }
}
