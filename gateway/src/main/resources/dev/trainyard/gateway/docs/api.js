// Starts Swagger UI on /v1/openapi.json; a file of its own, as the page's policy allows no inline script.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/v1/openapi.json",
    dom_id: "#api",
    deepLinking: true,
    // a reference, not a console: no request is sent from the page, so no token is typed into it
    supportedSubmitMethods: [],
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
