package dev.gpurent.adapter;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The adapter kinds on the class path, by name. */
public final class AdapterRegistry {

  private final Map<String, VendorAdapterFactory> factories;

  public AdapterRegistry(Iterable<VendorAdapterFactory> factories) {
    Map<String, VendorAdapterFactory> m = new TreeMap<>();
    for (VendorAdapterFactory f : factories) {
      VendorAdapterFactory other = m.putIfAbsent(f.name(), f);
      if (other != null) {
        throw new IllegalStateException("adapter kind '" + f.name() + "' is claimed by both "
            + other.getClass().getName() + " and " + f.getClass().getName());
      }
    }
    this.factories = Map.copyOf(m);
  }

  /** Every factory listed in META-INF/services on the class path. */
  public static AdapterRegistry load() {
    return new AdapterRegistry(ServiceLoader.load(VendorAdapterFactory.class));
  }

  /** The factory for a kind; an unknown kind fails naming the known ones. */
  public VendorAdapterFactory factory(String kind) {
    VendorAdapterFactory f = factories.get(kind);
    if (f == null) {
      throw new IllegalArgumentException("unknown adapter kind '" + kind + "'; known kinds: "
          + String.join(", ", new TreeMap<>(factories).keySet()));
    }
    return f;
  }

  public java.util.Set<String> kinds() {
    return new java.util.TreeSet<>(factories.keySet());
  }
}
