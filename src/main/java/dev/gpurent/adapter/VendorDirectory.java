package dev.gpurent.adapter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The vendor YAML files of one folder ({@code adapters/}), read and checked together. */
public final class VendorDirectory {

  private VendorDirectory() {}

  /**
   * Every enabled vendor in {@code dir}, in file-name order. A malformed file, an unknown kind or
   * two files claiming one vendor id fail with a message naming the file.
   */
  public static List<VendorDefinition> load(Path dir, AdapterRegistry registry) {
    return loadAll(dir, registry).stream().filter(VendorDefinition::enabled).toList();
  }

  /** Every vendor in {@code dir}, enabled or not, checked as {@link #load} checks them. */
  public static List<VendorDefinition> loadAll(Path dir, AdapterRegistry registry) {
    if (!Files.isDirectory(dir)) throw new IllegalArgumentException(dir + ": no such adapters folder");
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().matches(".*\\.ya?ml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<VendorDefinition> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Path f : files) {
      VendorDefinition d = VendorDefinition.load(f);
      try {
        registry.factory(d.kind());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(f + ": kind: " + e.getMessage());
      }
      if (!ids.add(d.vendor())) throw new IllegalArgumentException(f + ": vendor '" + d.vendor() + "' is defined twice");
      out.add(d);
    }
    return out;
  }
}
