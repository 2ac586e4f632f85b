// The query page: YASGUI against this endpoint's /query, the token from the field as a Bearer header.
// Served from the package with a Content-Security-Policy that allows this origin only: no CDN, no
// autocompletion services, nothing leaves the page but requests to this endpoint.
(function () {
  "use strict";
  var endpoint = new URL("query", window.location.href).href;
  var token = document.getElementById("token");
  document.getElementById("endpoint").textContent = endpoint;
  token.value = window.sessionStorage.getItem("kg-token") || "";
  token.addEventListener("input", function () { window.sessionStorage.setItem("kg-token", token.value); });
  window.yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: {
      endpoint: endpoint,
      method: "POST",
      headers: function () { return token.value ? { Authorization: "Bearer " + token.value } : {}; },
    },
    copyEndpointOnNewTab: true,
    endpointCatalogueOptions: { getData: function () { return [{ endpoint: endpoint }]; } },
    yasqe: { autocompleters: [], value: "SELECT ?g (COUNT(*) AS ?triples) WHERE { GRAPH ?g { ?s ?p ?o } }\nGROUP BY ?g ORDER BY ?g" },
    persistenceId: null,
  });
})();
