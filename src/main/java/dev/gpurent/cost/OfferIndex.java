package dev.gpurent.cost;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.Stock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link QuoteBook} laid out for the scan, built once per book so that ranking never parses
 * a BigDecimal or looks an offer's modes up twice.
 *
 * <p>Every vendor's quotes become primitive columns, index-aligned with its quote list: a price
 * as a double (for comparing, never for billing), one over the hours its unit spans, and slots
 * into three small tables of the whole book: GPU ids, currencies and offer shapes. A shape is an
 * offer short of its price (card, billing mode, GPUs per instance, currency, unit): every offer
 * of one shape costs the same multiple of its price for a workload, so the scan works that
 * multiple out once per shape, not once per offer. The columns are never handed outside cost/.
 *
 * <p>An offer's stated stock is part of its shape: an offer its source says is unavailable has a
 * shape of its own that the scan never fits (so it is never picked, at no cost per offer), and
 * the vendor keeps a short list of such offers for the rare pass that says which would have won.
 */
final class OfferIndex {

  /** What an offer is, short of its price. */
  record Shape(int gpuSlot, Billing billing, double gpuCount, int currencySlot, PriceUnit unit, Stock.State stock) {}

  /**
   * One vendor's quotes as columns.
   *
   * @param shapes            each quote's shape, the book's ({@link #shapes()})
   * @param ownShapes         each quote's shape numbered within the vendor (0, 1, ...)
   * @param shapeIds          the book's shape of each of the vendor's own shape numbers
   * @param interruptionRates the book's interruption rate of each quote, NaN where unknown; null when no data was read
   * @param byShape           the quotes' indexes grouped by own shape, each group cheapest first (ties in index order)
   * @param shapeStart        where each own shape's group starts in {@code byShape}, and its end as the last element
   * @param rated             per own shape, whether a quote of it has an interruption rate of its own (then its
   *                          cost is not its price times one figure of the shape)
   * @param cheapest          per own shape, its cheapest quote's price; with {@code shapeSlots} and {@code shapeBillings}
   *                          (its GPU slot and billing ordinal) side by side, so that a scan passing over a shape reads
   *                          three small arrays in order rather than a quote of each shape scattered over the columns
   */
  record Columns(double[] prices, double[] unitsPerHour, int[] gpuSlots, int[] currencySlots, int[] shapes, int[] ownShapes,
                 int[] shapeIds, byte[] billings, double[] interruptionRates, int[] byShape, int[] shapeStart, boolean[] rated,
                 double[] cheapest, int[] shapeSlots, byte[] shapeBillings) {}

  private final Map<String, Columns> columns = new HashMap<>();
  private final List<String> gpuIds = new ArrayList<>();
  private final List<String> currencies = new ArrayList<>();
  private final List<Shape> shapes = new ArrayList<>();
  private final Map<String, List<Quote>> modesByOffer = new HashMap<>();
  private final Map<String, int[]> unavailable = new HashMap<>();
  /** The same lists by the book's own quote objects: a ranking asks for each winner's, and a key is a new string to hash. */
  private final Map<Quote, List<Quote>> modesByQuote = new java.util.IdentityHashMap<>();

  private OfferIndex(QuoteBook book) {
    Map<String, Integer> gpuSlot = new HashMap<>();
    Map<String, Integer> currencySlot = new HashMap<>();
    Map<Shape, Integer> shapeSlot = new HashMap<>();
    boolean rates = book.spotRisk().isPresent();
    for (QuoteBook.Entry e : book.vendors().values()) {
      List<Quote> quotes = e.quotes().quotes();
      int n = quotes.size();
      double[] values = new double[n];
      byte[] modes = new byte[n];
      double[] hours = new double[n];
      int[] gpus = new int[n];
      int[] curs = new int[n];
      int[] shapeOf = new int[n], ownShapeOf = new int[n];
      // the vendor's own shape numbers (0, 1, ...): a scan that prices one vendor keeps a few dozen shapes, not the book's
      Map<Integer, Integer> own = new HashMap<>();
      List<Integer> ownIds = new ArrayList<>();
      double[] interruption = rates ? new double[n] : null;
      List<Integer> soldOut = new ArrayList<>(0);
      for (int i = 0; i < n; i++) {
        Quote q = quotes.get(i);
        values[i] = q.price().toDouble();
        modes[i] = (byte) q.billing().ordinal();
        hours[i] = 1 / q.unit().hoursValue();
        gpus[i] = gpuSlot.computeIfAbsent(q.gpuId(), id -> { gpuIds.add(id); return gpuIds.size() - 1; });
        curs[i] = currencySlot.computeIfAbsent(q.price().currency(), c -> { currencies.add(c); return currencies.size() - 1; });
        shapeOf[i] = shapeSlot.computeIfAbsent(new Shape(gpus[i], q.billing(), q.gpuCount(), curs[i], q.unit(), q.stock().state()),
            k -> { shapes.add(k); return shapes.size() - 1; });
        ownShapeOf[i] = own.computeIfAbsent(shapeOf[i], k -> { ownIds.add(k); return ownIds.size() - 1; });
        if (interruption != null) interruption[i] = book.interruptionRate(q).orElse(Double.NaN);
        if (q.stock().isUnavailable()) soldOut.add(i);
        else modesByOffer.computeIfAbsent(offerKey(q), k -> new ArrayList<>()).add(q);
      }
      if (!soldOut.isEmpty()) unavailable.put(e.quotes().vendor(), soldOut.stream().mapToInt(Integer::intValue).toArray());
      int[] ownToBook = ownIds.stream().mapToInt(Integer::intValue).toArray();
      // Within a shape a quote's cost is its price times the shape's figure, so the scan reads each group
      // cheapest first and stops at the first quote that cannot win: a few quotes a shape, not all.
      int[] byShape = java.util.stream.IntStream.range(0, n).boxed()
          .sorted(java.util.Comparator.comparingInt((Integer i) -> ownShapeOf[i]).thenComparingDouble(i -> values[i]))
          .mapToInt(Integer::intValue).toArray();
      int[] shapeStart = new int[ownToBook.length + 1];
      boolean[] rated = new boolean[ownToBook.length];
      for (int i = 0; i < n; i++) {
        shapeStart[ownShapeOf[i] + 1]++;
        if (interruption != null && !Double.isNaN(interruption[i])) rated[ownShapeOf[i]] = true;
      }
      for (int k = 0; k < ownToBook.length; k++) shapeStart[k + 1] += shapeStart[k];
      double[] cheapest = new double[ownToBook.length];
      int[] shapeSlots = new int[ownToBook.length];
      byte[] shapeBillings = new byte[ownToBook.length];
      for (int k = 0; k < ownToBook.length; k++) {
        int first = byShape[shapeStart[k]];
        cheapest[k] = values[first];
        shapeSlots[k] = gpus[first];
        shapeBillings[k] = modes[first];
      }
      columns.put(e.quotes().vendor(), new Columns(values, hours, gpus, curs, shapeOf, ownShapeOf, ownToBook, modes, interruption,
          byShape, shapeStart, rated, cheapest, shapeSlots, shapeBillings));
    }
    for (List<Quote> modes : modesByOffer.values()) {
      List<Quote> view = Collections.unmodifiableList(modes);
      for (Quote q : modes) modesByQuote.put(q, view);
    }
  }

  private static volatile Object[] last = {null, null};

  /** The index of {@code book}; the last one built is kept, as a live service ranks many scenarios on one book. */
  static OfferIndex of(QuoteBook book) {
    Object[] kept = last;
    if (kept[0] == book) return (OfferIndex) kept[1];
    OfferIndex index = new OfferIndex(book);
    last = new Object[] {book, index};
    return index;
  }

  private static String offerKey(Quote q) {
    return q.vendor() + '|' + q.region() + '|' + q.offerId();
  }

  /** The vendor's quotes as columns; null for a vendor not in the book. */
  Columns columns(String vendor) {
    return columns.get(vendor);
  }

  // views made once: the scan asks for them per offer it compares
  private final List<Shape> shapesView = Collections.unmodifiableList(shapes);
  private final List<String> gpuIdsView = Collections.unmodifiableList(gpuIds);
  private final List<String> currenciesView = Collections.unmodifiableList(currencies);

  List<Shape> shapes() {
    return shapesView;
  }

  List<String> gpuIds() {
    return gpuIdsView;
  }

  List<String> currencies() {
    return currenciesView;
  }

  /** Indexes of the vendor's quotes whose source says they cannot be rented now; empty for most vendors. */
  int[] unavailable(String vendor) {
    return unavailable.getOrDefault(vendor, NONE);
  }

  private static final int[] NONE = {};

  /** Every billing mode the same offer (vendor, region, offer id) is sold in and not stated unavailable, including {@code q}. */
  List<Quote> modesOf(Quote q) {
    List<Quote> modes = modesByQuote.get(q);
    return modes != null ? modes : Collections.unmodifiableList(modesByOffer.getOrDefault(offerKey(q), List.of(q)));
  }
}
