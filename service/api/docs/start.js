// Swagger UI over this server's own OpenAPI document.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  tryItOutEnabled: false,
});
