/* Share through the phone's own share sheet (Web Share API), where the browser offers it.
 *
 * The Share page carries, hidden, one button per thing to share (data-share-url, with
 * data-share-file for a download such as the PDF). Where navigator.share exists they are
 * shown; a file is shared as a file where the browser can share files, else its address.
 * Elsewhere the page stays as it is: its links and QR codes do the sharing.
 */
(function () {
  "use strict";

  if (!navigator.share) { return; }

  function fileOf(button) {
    if (!button.dataset.shareFile || !navigator.canShare || !window.File) {
      return Promise.resolve(null);
    }
    return fetch(button.dataset.shareUrl, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { return null; }
      return response.blob().then(function (blob) {
        var file = new File([blob], button.dataset.shareFile, { type: blob.type });
        return navigator.canShare({ files: [file] }) ? file : null;
      });
    }).catch(function () { return null; });
  }

  function share(button) {
    var title = button.dataset.shareTitle;
    fileOf(button).then(function (file) {
      var data = file ? { title: title, files: [file] } : { title: title, url: button.dataset.shareUrl };
      return navigator.share(data);
    }).catch(function () { /* the sheet was closed, or sharing refused: nothing to say */ });
  }

  document.querySelectorAll("[data-web-share]").forEach(function (group) {
    group.hidden = false;
    group.querySelectorAll("[data-share-url]").forEach(function (button) {
      button.addEventListener("click", function () { share(button); });
    });
  });
}());
