package dev.gpurent.adapter;

/** The plug-in of kind {@code aws-spot-js}: the legacy spot.js feed, see {@link AwsSpotJsFormat}. */
public final class AwsSpotJsFactory extends FormatFactory {

  public AwsSpotJsFactory() {
    super(AwsSpotJsFormat.KIND, AwsSpotJsFormat::parse);
  }
}
