// the seed form opens /seed/{seed}
"use strict";
document.getElementById("seed-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const seed = document.getElementById("seed").value.trim();
  if (seed) window.location.href = "/seed/" + encodeURIComponent(seed);
});
