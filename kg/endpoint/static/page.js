// The query page: YASGUI against this endpoint's /query, the token from the field as a Bearer header; the
// editor starts with the project's PREFIXes, and the example list holds the library's parameterless queries
// (sparql/*.rq, from /examples.json).
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
  var examples = document.getElementById("examples");
  fetch(new URL("examples.json", window.location.href).href)
    .then(function (response) { return response.json(); })
    .then(function (data) {
      var yasqe = window.yasgui.getTab().getYasqe();
      yasqe.setValue(data.prefixes + "\n" + yasqe.getValue());
      data.queries.forEach(function (q) {
        var option = document.createElement("option");
        option.value = q.query;
        option.textContent = q.name + " — " + q.intent.slice(0, 80);
        examples.appendChild(option);
      });
      examples.addEventListener("change", function () {
        if (examples.value) { window.yasgui.getTab().getYasqe().setValue(examples.value); }
      });
      document.body.setAttribute("data-examples", String(data.queries.length));
    });
})();
