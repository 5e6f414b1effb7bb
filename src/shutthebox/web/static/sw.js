// service worker: see the page commit
