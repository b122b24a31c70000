// Starts Swagger UI on /docs over this API's OpenAPI document. A file of its own, not an
// inline script: the app's Content-Security-Policy runs only scripts the app serves. It is
// served from /workbench/ with the pages' own files (the folder the package ships).

// The page leads with the API: its areas in the order a course meets them, then any area
// not named here, then the service endpoints, and the workbench's HTML pages last.
const FIRST = ["trees", "games", "matrices", "lotteries", "utility", "preferences", "grading", "formats"];
const LAST = ["service", "workbench"];

function rank(tag) {
  if (FIRST.includes(tag)) return FIRST.indexOf(tag);
  if (LAST.includes(tag)) return FIRST.length + 1 + LAST.indexOf(tag);
  return FIRST.length;
}

window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
  validatorUrl: null,
  tryItOutEnabled: true,
  tagsSorter: (a, b) => rank(a) - rank(b) || a.localeCompare(b),
});
