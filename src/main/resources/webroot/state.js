// The page's one state object: every module reads and writes here, and renders from it.
export const state = {
  lang: 'en',
  presets: [],
  presetId: '',
  scenario: null,        // the scenario as the form holds it (plain JSON, as POST /api/rank takes it)
  errors: [],            // [{field, reason}] from the last 400
  scenarioId: null,      // the live scenario's id on the server
  registered: null,      // the scenario registered under that id
  ranking: null,
  updatedAt: null,
  prevRanks: new Map(),  // vendor -> rank before the last update, to show moves
  rankingOf: null,       // the live scenario id the ranking shown is of (moves compare within one scenario only)
  expanded: new Set(),   // vendors whose bill is open; kept across live updates
  compare: [],           // vendor ids ticked for the compare view (at most 3)
  status: { key: 'idle', args: {} },
  chartLog: false,
  vendors: null,
  vendorsAt: null,
  vendorsError: null,
  sensitivity: {},       // param -> [{value, vendor, monthly}] for its grid
  sensitivityFor: '',    // the live scenario id those grids were ranked for
};
