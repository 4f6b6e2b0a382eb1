package dev.gpurent.adapter;

/** A plug-in that is given its kind's name once. */
abstract class NamedFactory implements VendorAdapterFactory {

  private final String name;

  NamedFactory(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }
}
