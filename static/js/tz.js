/* Tells the server the browser's time zone (a cookie), so that the history shows local times;
   reloads once when the page was written for another zone. */
(function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone) return;
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  var shown = document.querySelector("[data-tz]");
  if (shown && shown.getAttribute("data-tz") !== zone && !sessionStorage.getItem("tz-reloaded")) {
    sessionStorage.setItem("tz-reloaded", "1");
    location.reload();
  }
})();
