package dev.gpurent.adapter;

/** The plug-in of kind {@code aws-spot-js}: the legacy spot.js feed, see {@link AwsSpotJsAdapter}. */
public final class AwsSpotJsFactory extends FormatFactory {

  public AwsSpotJsFactory() {
    super(AwsSpotJsAdapter.KIND, AwsSpotJsAdapter::parse);
  }
}
