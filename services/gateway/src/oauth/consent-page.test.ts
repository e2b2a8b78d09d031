import { describe, expect, it } from "vitest";
import { consentPage, errorPage } from "./consent-page";

const request = {
  clientId: "svc_client_abc",
  clientName: '<script>alert("x")</script>',
  redirectUri: "http://127.0.0.1:9/cb?a=1&b=2",
  codeChallenge: "c".repeat(43),
  state: `"><img src=x onerror=alert(1)>`,
};

const options = { action: "https://svc.example.com/prefix/oauth/authorize" };

describe("the consent page", () => {
  it("escapes everything a client controls", () => {
    const html = consentPage(request, options);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;");
    expect(html).toContain('name="state" value="&#34;&#62;&#60;img src&#61;x onerror&#61;alert(1)&#62;"');
    expect(html).toContain('name="redirect_uri" value="http://127.0.0.1:9/cb?a&#61;1&#38;b&#61;2"');
  });

  it("posts back every parameter of the request, a key field and the four roles", () => {
    const html = consentPage({ ...request, scope: "mcp", resource: "https://svc.example.com" }, options);
    expect(html).toContain('<form method="post" action="https://svc.example.com/prefix/oauth/authorize"');
    for (const name of [
      "client_id",
      "redirect_uri",
      "response_type",
      "code_challenge",
      "code_challenge_method",
      "state",
      "scope",
      "resource",
    ]) {
      expect(html).toContain(`type="hidden" name="${name}"`);
    }
    expect(html).toContain('<input type="password" id="api_key" name="api_key" required');
    expect(html.match(/<option value="(owner|admin|member|viewer)"/g)).toHaveLength(4);
    expect(html).toContain('<option value="member" selected>');
    expect(html).toContain('value="approve"');
    expect(html).toContain('value="deny"');
  });

  it("escapes the form's action", () => {
    const html = consentPage(request, { action: 'https://svc.example.com/"><script>/oauth/authorize' });
    expect(html).toContain('action="https://svc.example.com/&#34;&#62;&#60;script&#62;/oauth/authorize"');
  });

  it("shows an error above the form and keeps the chosen role", () => {
    const html = consentPage(request, { ...options, error: "That API key is <not> valid", role: "viewer" });
    expect(html).toContain('role="alert">That API key is &#60;not&#62; valid</div>');
    expect(html).toContain('<option value="viewer" selected>');
    expect(html).not.toContain('<option value="member" selected>');
  });

  it("leaves out parameters that were not sent", () => {
    const html = consentPage({ ...request, clientName: null, state: undefined } as never, options);
    expect(html).not.toContain('name="state"');
    expect(html).toContain("An application");
  });

  it("escapes the message of the error page", () => {
    expect(errorPage("<b>bad</b>")).toContain("&#60;b&#62;bad&#60;/b&#62;");
  });
});
