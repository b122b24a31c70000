// Starts Swagger UI on /docs over this API's OpenAPI document. A file of its own, not an
// inline script: the app's Content-Security-Policy runs only scripts the app serves. It is
// served from /workbench/ with the pages' own files (the folder the package ships).

window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
  validatorUrl: null,
  tryItOutEnabled: true,
});
