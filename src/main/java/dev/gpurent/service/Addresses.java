package dev.gpurent.service;

/**
 * Every event-bus address, in one place. Bodies are JSON except where noted: a QuoteBook travels
 * by reference with {@link LocalCodec} (it is immutable and can hold 100,000 quotes; clustered
 * nodes receive each vendor's quotes as JSON and build their own books). Every request-reply address fails, by
 * {@link Failures}, with a status and the JSON text {@code {"error", "fields"?}}.
 *
 * <p>In a cluster every request-reply address, and {@link #QUOTES_CHANGED}, stays on its node:
 * its consumers are local ({@code localConsumer}), so a request is answered by the node that asked.
 * Only the addresses marked "cluster-wide" cross nodes; every message they carry names its
 * sender in {@link #NODE_HEADER}.
 */
public final class Addresses {

  private Addresses() {}

  /** Publish. Body: the new {@code QuoteBook} (local codec), after any change of quotes or freshness. */
  public static final String QUOTES_CHANGED = "gpurent.quotes.changed";

  /**
   * Publish, cluster-wide. Header {@link #VENDOR_HEADER}. Body: JSON, one vendor's quotes as
   * {@code QuoteJson.toJson(VendorQuotes)} writes them: fetched by the node holding that vendor's
   * lease, installed by every other node as if it had fetched them.
   */
  public static final String QUOTES_FETCHED = "gpurent.quotes.fetched";

  /** Publish, cluster-wide. Body: anything. A node that joins asks for every vendor's quotes: each lease holder publishes its vendors' on QUOTES_FETCHED. */
  public static final String QUOTES_WANTED = "gpurent.quotes.wanted";

  /** The header naming the vendor of a {@link #QUOTES_FETCHED} message. */
  public static final String VENDOR_HEADER = "vendor";

  /** The header naming the node (cluster manager id) that sent a cluster-wide message; "" on a single node. */
  public static final String NODE_HEADER = "node";

  /** Request-reply. Body: anything. Reply: the current {@code QuoteBook} (local codec). */
  public static final String QUOTES_BOOK = "gpurent.quotes.book";

  /**
   * Request-reply. Body: anything but {@code {"vendor": id}}: reply the JSON array of vendor statuses
   * (last success, last error, counts, breaker). Body {@code {"vendor": id}}: reply that vendor's
   * status with its refused rows ({@code refused}: the first 100 with where and why, counts by
   * reason), or fail 404 for an unknown id.
   */
  public static final String QUOTES_STATUS = "gpurent.quotes.status";

  /**
   * Request-reply. Body: {@code {"vendor": id}} or {@code {}} for every vendor. Refreshes now and
   * replies, once every refresh asked for has settled, with JSON {@code {"refreshed": [...], "failed": {...}}}.
   */
  public static final String QUOTES_REFRESH = "gpurent.quotes.refresh";

  /**
   * Request-reply. Body: {@code {"scenario": {...}, "format": "json" | "csv" | "xlsx", "lang": "en" | "zh"}}.
   * Reply: the ranking encoded as text (JSON or CSV), or the Excel workbook as a Buffer. Fails 400
   * with a JSON array of bad fields, 503 before any quotes, when busy, or when the memory budget has no room for it.
   */
  public static final String RANKING_COMPUTE = "gpurent.ranking.compute";

  /**
   * Publish. Body: {@code {"request": id}}, the {@link #REQUEST_HEADER} of a RANKING_COMPUTE whose
   * client has gone: not started if it still waits, not encoded if it runs.
   */
  public static final String RANKING_CANCEL = "gpurent.ranking.cancel";

  /** The header naming a RANKING_COMPUTE request, so that it can be cancelled. */
  public static final String REQUEST_HEADER = "request";

  /** The header of a SCENARIOS_REGISTER naming the client's address ({@link ClientIdentity}: behind a trusted proxy, the one it forwards), for the per-client quota. */
  public static final String CLIENT_HEADER = "client";

  /**
   * Request-reply. Body: a scenario (JSON); header {@link #CLIENT_HEADER}. Reply: {@code {"id": ...}};
   * fails 400 like RANKING_COMPUTE, 429 past the live-scenario caps (in all, per client, the live share of the memory
   * budget), 503 while one-off rankings hold the rest of the budget.
   */
  public static final String SCENARIOS_REGISTER = "gpurent.scenarios.register";

  /**
   * Request-reply. Body: {@code {"id": ...}}. Reply: the scenario's current ranking (a
   * {@code LiveRankingUpdate}, see {@link #RANKINGS_CHANGED}), ranked then if this node does not keep it
   * ranked; fails 404 (unknown), 503 (no quotes yet, or stored but not loaded: over the memory budget at start), 500 (its
   * last ranking failed, and why).
   */
  public static final String SCENARIOS_RANKING = "gpurent.scenarios.ranking";

  /** Request-reply. Body: {@code {"id": ...}}. Reply: {@code {"deleted": id}}; fails 404, 503 when the store cannot delete it. */
  public static final String SCENARIOS_DELETE = "gpurent.scenarios.delete";

  /**
   * Publish. Body: {@code {"id": ..., "registration": {...}, "client": ...}}, the registration body
   * as it came (the scenario with its {@code lang} and {@code alerts}) and who registered it (its
   * alerts share that client's delivery rate); sent by the RankingVerticle when a
   * live scenario is registered, before its first {@link #RANKINGS_CHANGED}, so that the
   * AlertVerticles know its rules. It carries webhook URLs and secrets: never log it.
   */
  public static final String SCENARIO_REGISTERED = "gpurent.scenarios.registered";

  /**
   * Request-reply. Body: {@code {"id": ..., "limit"?: 50}}. Reply: {@code {"scenario": id,
   * "deliveries": [{key, rule, when, channel, status, attempts, lastError, createdAt, updatedAt,
   * event}]}}, newest first; fails 404 (no such live scenario), 503 (the store is unavailable).
   */
  public static final String ALERTS_LOG = "gpurent.alerts.log";

  /** The deliveries an {@link #ALERTS_LOG} answer holds when its body names no limit, and at most. */
  public static final int ALERTS_LOG_DEFAULT = 50, ALERTS_LOG_MAX = 500;

  /**
   * Publish, cluster-wide. Body: {@code {"id", "client", "created", "body"}} (the registration body
   * as JSON text) for a scenario registered on the sending node, {@code {"id", "deleted": true}}
   * for one deleted there: every other node's RankingVerticle adds or forgets it.
   */
  public static final String SCENARIOS_CHANGED = "gpurent.scenarios.changed";

  /** Publish, local. Body: null. The HTTP verticles listen: the RankingVerticle ranks the scenarios it keeps (the restored ones) and publishes them on RANKINGS_CHANGED. */
  public static final String RANKINGS_WANTED = "gpurent.rankings.wanted";

  /**
   * Publish, local. Body: a scenario id that this node no longer keeps ranked (neither its owner nor
   * followed by a dashboard here): the HTTP verticles drop its ranking, which would go stale; a
   * reader asks again ({@link #SCENARIOS_RANKING}) and it is ranked for them.
   */
  public static final String RANKINGS_DROPPED = "gpurent.rankings.dropped";

  /**
   * Not an address: the name of the process-local shared map of the live scenarios some dashboard
   * follows ({@link WatchedScenarios}), written by the HTTP verticles, read by the RankingVerticle.
   */
  public static final String WATCHED_SCENARIOS = "gpurent.scenarios.watched";

  /** Request-reply. Body: anything. Reply: re-reads adapters/ and restarts the quote pipeline; {@code {"vendors": n}}. */
  public static final String ADMIN_RELOAD = "gpurent.admin.reload";

  /**
   * Send, local. Body: {@code {"action": "reload"}}, {@code {"action": "refresh", "vendor"?}} or
   * {@code {"action": "import", "vendor", "files"}} (as {@link #QUOTE_SHEETS_IMPORT}): an admin
   * action this node has done, for the other nodes of its cluster to do too. The
   * {@link ClusterAdminVerticle} passes it on as {@link #ADMIN_ACTIONS}; on a single node nothing
   * listens and it is dropped.
   */
  public static final String ADMIN_DONE = "gpurent.admin.done";

  /**
   * Publish, cluster-wide. Body: as {@link #ADMIN_DONE}. Every other node does the action itself,
   * so that an admin action on any node takes effect on all: it reloads its own {@code adapters/},
   * refreshes (each vendor's lease holder fetches it and publishes the quotes), or imports the
   * quote sheet into its own {@code adapters/} and reloads.
   */
  public static final String ADMIN_ACTIONS = "gpurent.admin.actions";

  /** The header of a {@link #QUOTE_SHEETS_IMPORT} passed on from another node: imported here, and not passed on again. */
  public static final String SHARED_HEADER = "shared";

  /**
   * Request-reply. Body: {@code {"vendor", "files": [{"name", "bytes" (base64)}]}}: a quote sheet
   * (one .xlsx, or an offers .csv and a terms .csv). Imports it into adapters/ and reloads the
   * vendors; reply: {@code {"vendor", "offers", "quotes", "warnings": [neutral messages], "files": [...], "vendors": n}};
   * fails 400 with the bad cells as a JSON array of {@code {field, reason, message}} (the HTTP edge says each in the client's language).
   */
  public static final String QUOTE_SHEETS_IMPORT = "gpurent.quotesheets.import";

  /**
   * Publish, local (from the node's RankingVerticle to its HTTP verticles and AlertVerticle: a node
   * ranks the scenarios it serves itself, none of them crosses the cluster). Body: a
   * {@code RankingsChanged}, by reference: the live scenarios whose ranking changed (a pass
   * publishes one message for each chunk it ranked), each with its {@code LiveRankingUpdate} (the
   * ranking's typed fields, rendered at the edge into the message dashboards receive,
   * {@code {"type":"ranking","scenario":id,"ranking":{...}}}), or a failure's update (its status and
   * why; rendered {@code {"type":"error","scenario":id,"status":500,"error":...}}), or null: the
   * scenario was deleted. Sent only when the ranking changed.
   */
  public static final String RANKINGS_CHANGED = "gpurent.rankings.changed";

  /**
   * Request-reply. Body: {@code null} or {@code {"slot": "..."}} (default {@code manual-<instant>}).
   * Snapshots the current quote book now: fresh vendors as fetched, the others carried from the
   * previous snapshot; reply: {@code {"id", "slot", "quotes", "created", "carried": [vendor],
   * "left": [vendor]}} ({@code created} false when the slot already had one: nothing written;
   * {@code left}: vendors neither current nor in the previous snapshot).
   */
  public static final String SNAPSHOTS_TAKE = "gpurent.snapshots.take";

  /** Request-reply. Body: {@code {"limit"?: 30, "before"?: ISO instant or date}}. Reply: JSON array of snapshot metadata (no vendor terms), newest first. */
  public static final String SNAPSHOTS_LIST = "gpurent.snapshots.list";

  /** Request-reply. Body: {@code {"id"}}. Reply: the snapshot's metadata plus {@code quotes}, every quote; fails 404. */
  public static final String SNAPSHOTS_GET = "gpurent.snapshots.get";

  /**
   * Request-reply. Body: {@code {"id", "against"?}} (default: the snapshot before {@code id}). Reply:
   * {@code {"snapshot", "against", "changed": [...with percent], "added", "removed", "unchanged"}};
   * fails 404 (no such snapshot, or none before it), 400.
   */
  public static final String SNAPSHOTS_DIFF = "gpurent.snapshots.diff";

  /**
   * Request-reply. Body: {@code {"gpu"?, "vendor"?, "billing"?, "from"?, "to"?, "currency"?}} (dates or
   * ISO instants). Reply: JSON array of series, one per offer, under the vendor's canonical id:
   * {@code {vendor, listedAs?, region, offer, gpu, gpuCount, billing, currency, unit, points: [{at, price}],
   * fx?: {from, rate, asOf, source}}}, converted to {@code currency} at the book's rates; fails 400.
   */
  public static final String HISTORY = "gpurent.history";

  /**
   * Request-reply. Body: anything. Reply: {@code {"available": bool, "error"?: why the store could
   * not be opened and what to do, "failing"?: why the open store fails now (its integrity check
   * at start, or its last operation)}}.
   */
  public static final String SNAPSHOTS_STATUS = "gpurent.snapshots.status";
}
