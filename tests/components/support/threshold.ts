/** The share of a machine's transitions the component model tests must drive through the UI (issue 28). */
export const MIN_UI_TRANSITION_COVERAGE = 0.9;
