import { type CheckedAuthorization, type Role, roles } from "@svc/contracts";

/** Everything that reaches the page is escaped: names, URIs and state come from whoever registered. */
const escapeHtml = (value: string): string => value.replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
  h1 { font-size: 1.4rem; }
  .box { border: 1px solid #ccc; border-radius: 8px; padding: 1rem 1.25rem; }
  .error { border-color: #b3261e; color: #b3261e; margin-bottom: 1rem; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  input[type=password], select { width: 100%; font: inherit; padding: .4rem; box-sizing: border-box; }
  .buttons { margin-top: 1.5rem; display: flex; gap: .75rem; }
  button { font: inherit; padding: .5rem 1.25rem; }
  code { word-break: break-all; }
  small { color: #555; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const hidden = (name: string, value: string | undefined): string =>
  value === undefined ? "" : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export interface ConsentPageOptions {
  /**
   * Where the form posts: absolute, from the public URL, so that it still reaches the authorization
   * endpoint when a proxy serves the gateway under a path prefix.
   */
  action: string;
  /** Shown above the form, after a failed attempt. */
  error?: string;
  role?: Role;
}

/**
 * The consent page: plain HTML, no script, one form that posts back to /oauth/authorize. The person
 * pastes an API key of the organisation the agent may use, and picks the role to grant (at most the
 * key's own; the auth service checks).
 */
export function consentPage(request: CheckedAuthorization, options: ConsentPageOptions): string {
  const client = request.clientName ?? "An application";
  const selected = options.role ?? "member";
  const roleOptions = roles
    .map((role) => `<option value="${role}"${role === selected ? " selected" : ""}>${role}</option>`)
    .join("");
  const error = options.error ? `<div class="box error" role="alert">${escapeHtml(options.error)}</div>` : "";
  return page(
    "Connect an agent to svc",
    `<h1>Connect <strong>${escapeHtml(client)}</strong> to svc</h1>
${error}
<div class="box">
<p><strong>${escapeHtml(client)}</strong> asks to use the svc API on your behalf, through the Model Context Protocol.
When you approve, you will be sent back to <code>${escapeHtml(request.redirectUri)}</code>.</p>
<form method="post" action="${escapeHtml(options.action)}" autocomplete="off">
${hidden("client_id", request.clientId)}
${hidden("redirect_uri", request.redirectUri)}
${hidden("response_type", "code")}
${hidden("code_challenge", request.codeChallenge)}
${hidden("code_challenge_method", "S256")}
${hidden("state", request.state)}
${hidden("scope", request.scope)}
${hidden("resource", request.resource)}
<label for="api_key">API key of the organisation to connect</label>
<input type="password" id="api_key" name="api_key" required spellcheck="false" autocomplete="off">
<small>The key is checked and not stored with the connection; the agent never sees it.</small>
<label for="role">Role to grant</label>
<select id="role" name="role">${roleOptions}</select>
<small>At most the key's own role. A viewer may only read.</small>
<div class="buttons">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
</div>`,
  );
}

/** A request that cannot be sent back to its client (unknown client, unregistered redirect URI). */
export function errorPage(message: string): string {
  return page(
    "Cannot connect",
    `<h1>This connection request cannot be completed</h1>
<div class="box error" role="alert">${escapeHtml(message)}</div>
<p>Nothing was granted. Start the connection again from the application.</p>`,
  );
}
