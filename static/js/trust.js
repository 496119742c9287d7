/* Over plain HTTP (templates/_secure_offer.html): whether this phone trusts the table's
 * certificate yet. A small image is loaded from the secure address: it loads only where the
 * phone trusts the certificate, and the offer then leads straight to the secure address;
 * where it fails, installing the certificate stays the first step. */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var offer = document.querySelector(".secure-offer[data-probe]");
    if (!offer) { return; }
    var probe = new Image();
    probe.onload = function () { offer.classList.add("trusted"); };
    probe.onerror = function () { offer.classList.add("untrusted"); };
    /* Never from the browser's cache: a copy kept from before says nothing of now. */
    probe.src = offer.dataset.probe + "&t=" + Date.now();
  });
}());
