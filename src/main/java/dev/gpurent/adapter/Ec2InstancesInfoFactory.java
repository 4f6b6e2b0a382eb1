package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code ec2instances-info}: ec2instances.info's instances.json, see {@link Ec2InstancesInfoFormat}. */
public final class Ec2InstancesInfoFactory extends FormatFactory {

  public Ec2InstancesInfoFactory() {
    super(Ec2InstancesInfoFormat.KIND, Ec2InstancesInfoFormat::parse);
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    Ec2InstancesInfoFormat.families(def, catalog);
  }
}
