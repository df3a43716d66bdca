// Starts Swagger UI on /v1/openapi.json; a file of its own, as the page's policy allows no inline script.
// A reference, not a console: no request is sent from the page (no "try it out"), and the Authorize
// button is gone, so no token is ever typed into a page script.
window.addEventListener("load", function () {
  var noAuthorizeButton = function () {
    return { wrapComponents: { authorizeBtn: function () { return function () { return null; }; } } };
  };
  window.ui = SwaggerUIBundle({
    url: "/v1/openapi.json",
    dom_id: "#api",
    deepLinking: true,
    supportedSubmitMethods: [],
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [noAuthorizeButton],
    layout: "BaseLayout"
  });
});
