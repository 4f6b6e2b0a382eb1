package dev.gpurent.quotesheet;

/**
 * Apache POI logs through the Log4j API, which with no Log4j implementation on the class path
 * prints an error on first use. gpurent has no Log4j: POI's own (rare) messages go to the API's
 * simple logger on standard error instead, unless the JVM was told otherwise. Every workbook
 * gpurent reads or writes (quote sheets, the ranking workbook of report/) starts here.
 */
public final class Poi {

  private Poi() {}

  static {
    if (System.getProperty("log4j2.loggerContextFactory") == null) {
      System.setProperty("log4j2.loggerContextFactory", "org.apache.logging.log4j.simple.SimpleLoggerContextFactory");
    }
  }

  /** Call before touching POI: runs the static set-up above once. */
  public static void ready() {
    // the class initialiser did the work
  }
}
