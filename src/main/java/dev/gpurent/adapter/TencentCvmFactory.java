package dev.gpurent.adapter;

/** The plug-in of kind {@code tencent-cvm}: Tencent Cloud's signed CVM price API, see {@link TencentCvmAdapter}. */
public final class TencentCvmFactory extends SignedCloudFactory {

  public TencentCvmFactory() {
    super(TencentCvmAdapter.KIND, TencentCvmAdapter::adapter);
  }
}
