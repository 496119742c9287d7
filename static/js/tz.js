/* Tells the server the browser's time zone (a cookie), so that the history shows local times;
   when the page was written for another zone, loads it again once with the zone in its
   address: a cookie written through document.cookie can reach the browser's cookie store
   after a navigation that starts at once, and that page would come back without it. */
(function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone) return;
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  var shown = document.querySelector("[data-tz]");
  if (shown && shown.getAttribute("data-tz") !== zone && !sessionStorage.getItem("tz-reloaded")) {
    sessionStorage.setItem("tz-reloaded", "1");
    var address = new URL(location.href);
    address.searchParams.set("tz", zone);
    location.replace(address.toString());
  }
})();
