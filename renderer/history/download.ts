/**
 * Saves text as a file through a Blob URL and an `<a download>`: a download, not a fetch or an
 * image, so the page's CSP (`default-src 'none'`, no `blob:` source) does not stand in its way.
 * The URL is revoked once the click has handed it to the browser.
 */
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
