package dev.gpurent.adapter;

/** The plug-in of kind {@code ucloud-uhost}: UCloud's signed UHost price API, see {@link UcloudUhostAdapter}. */
public final class UcloudUhostFactory extends SignedCloudFactory {

  public UcloudUhostFactory() {
    super(UcloudUhostAdapter.KIND, UcloudUhostAdapter::adapter);
  }
}
