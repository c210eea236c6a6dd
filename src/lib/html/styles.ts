// The stylesheet of every server-rendered page: system fonts, the brand's colour as --brand (and
// the text that reads on it as --on-brand), readable on a phone and a desktop, no images or fonts
// fetched. Pages use these classes; nothing else styles them.

export const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;color:#1f2937;background:#f6f7f9;display:flex;flex-direction:column;min-height:100vh}
a{color:var(--brand-ink)}
a:hover{text-decoration-thickness:2px}
.wrap{width:100%;max-width:1040px;margin:0 auto;padding:0 20px}
.site-header{background:var(--brand);color:var(--on-brand)}
.header-row{display:flex;align-items:center;justify-content:space-between;gap:16px;min-height:64px;flex-wrap:wrap}
.brand{display:flex;align-items:center;gap:10px;color:var(--on-brand);text-decoration:none;font-weight:600;font-size:18px}
.logo{width:32px;height:32px;border-radius:8px;object-fit:cover;background:#fff}
.logo-letter{display:inline-grid;place-items:center;width:32px;height:32px;border-radius:8px;background:rgba(255,255,255,.2);font-weight:700}
.site-name{font-weight:400}
.site-name::before{content:"";display:inline-block;width:1px;height:18px;margin:0 10px -3px 0;background:currentColor;opacity:.4}
.languages{display:flex;gap:4px;flex-wrap:wrap;margin:0;padding:0;list-style:none;font-size:14px}
.languages a{color:var(--on-brand);text-decoration:none;padding:4px 10px;border-radius:999px}
.languages a:hover{text-decoration:underline}
.languages a[aria-current]{background:var(--on-brand);color:var(--brand);font-weight:600}
.hero{background:var(--brand);color:var(--on-brand);padding:28px 0 56px}
.hero h1{margin:0 0 18px;font-size:clamp(26px,4vw,38px);line-height:1.2;font-weight:700}
.search{display:flex;max-width:640px;background:#fff;border-radius:12px;box-shadow:0 8px 24px rgba(15,23,42,.18);overflow:hidden}
.search input{flex:1;min-width:0;border:0;padding:16px 18px;font:inherit;font-size:17px;color:#111827;background:transparent}
.search input:focus{outline:none}
.search:focus-within{box-shadow:0 0 0 3px rgba(255,255,255,.6),0 8px 24px rgba(15,23,42,.18)}
.search button{border:0;margin:6px;padding:0 20px;border-radius:8px;background:var(--brand);color:var(--on-brand);font:inherit;font-weight:600;cursor:pointer}
.search.compact{box-shadow:0 1px 3px rgba(15,23,42,.12);border:1px solid #e5e7eb;margin:0 0 24px}
main{flex:1}
.content{padding:32px 0 56px}
.hero + .content{margin-top:-36px;padding-top:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:16px;margin:0;padding:0;list-style:none}
.card{display:block;height:100%;background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:22px;text-decoration:none;color:inherit;box-shadow:0 1px 2px rgba(15,23,42,.04);transition:box-shadow .15s,border-color .15s,transform .15s}
.card:hover{border-color:var(--brand);box-shadow:0 6px 18px rgba(15,23,42,.08);transform:translateY(-1px)}
.card-icon{display:inline-grid;place-items:center;width:40px;height:40px;margin-bottom:14px;border-radius:10px;background:var(--brand);color:var(--on-brand);font-weight:700;font-size:18px}
.card h2,.card h3{margin:0 0 6px;font-size:18px;color:#111827}
.card p{margin:0 0 12px;color:#4b5563;font-size:15px}
.count{font-size:13px;color:#6b7280}
.panel{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:28px 32px;box-shadow:0 1px 2px rgba(15,23,42,.04)}
.section-title{font-size:14px;text-transform:uppercase;letter-spacing:.06em;color:#6b7280;margin:32px 0 12px}
.crumbs{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 16px;padding:0;list-style:none;font-size:14px;color:#6b7280}
.crumbs li+li::before{content:"›";margin-right:6px;color:#9ca3af}
.crumbs a{color:#4b5563;text-decoration:none}
.crumbs a:hover{color:var(--brand-ink);text-decoration:underline}
.page-title{margin:0 0 8px;font-size:clamp(26px,3.4vw,34px);line-height:1.25;color:#111827}
.lead{margin:0 0 20px;font-size:18px;color:#4b5563}
.list{margin:0;padding:0;list-style:none;border-top:1px solid #f0f1f3}
.list li{border-bottom:1px solid #f0f1f3}
.panel>.list:first-child{border-top:0}
.list li:last-child{border-bottom:0}
.list a{display:flex;justify-content:space-between;gap:12px;padding:14px 4px;text-decoration:none;color:#111827}
.list a:hover{color:var(--brand-ink)}
.list a::after{content:"›";color:#9ca3af}
.list .summary{display:block;color:#6b7280;font-size:14px;margin-top:2px}
.results{margin:0;padding:0;list-style:none}
.results li{padding:18px 0;border-bottom:1px solid #eef0f2}
.results a{font-size:18px;font-weight:600;text-decoration:none}
.results a:hover{text-decoration:underline}
.results p{margin:6px 0 0;color:#4b5563}
.results .sep{font-weight:700}
.results .where{font-size:13px;color:#6b7280;margin-top:4px}
mark{background:#fff3b0;color:inherit;padding:0 2px;border-radius:3px}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 280px;gap:24px;align-items:start}
@media (max-width:860px){.layout{grid-template-columns:1fr}.panel{padding:22px 20px}}
.article{font-size:17px;line-height:1.7}
.article h2{font-size:24px;margin:32px 0 8px;line-height:1.3}
.article h3{font-size:20px;margin:28px 0 8px}
.article h4{font-size:17px;margin:24px 0 6px}
.article p,.article ul,.article ol{margin:0 0 16px}
.article li{margin:4px 0}
.article figure{margin:20px 0}
.article img{max-width:100%;height:auto;border-radius:10px;border:1px solid #e5e7eb}
.callout{border-left:4px solid var(--brand);background:#f3f6ff;padding:14px 18px;border-radius:8px;margin:0 0 16px}
.link-block{display:inline-block;padding:10px 16px;border-radius:8px;background:var(--brand);color:var(--on-brand);text-decoration:none;font-weight:600}
.meta{font-size:14px;color:#6b7280;margin:0 0 24px}
.feedback{margin-top:32px;padding:20px;border-radius:12px;background:#f8fafc;border:1px solid #e5e7eb;text-align:center}
.feedback p{margin:0 0 12px;font-weight:600}
.feedback form{display:flex;justify-content:center;gap:12px;flex-wrap:wrap}
.feedback button{display:inline-flex;align-items:center;justify-content:center;gap:8px;font:inherit;padding:10px 22px;border-radius:999px;border:1px solid #d1d5db;background:#fff;cursor:pointer;min-width:110px}
.feedback button:hover{border-color:var(--brand-ink);color:var(--brand-ink)}
.feedback button[aria-pressed="true"]{background:var(--brand);color:var(--on-brand);border-color:var(--brand)}
.thanks{color:#047857}
.icon{flex:none}
.flip{transform:rotate(180deg)}
.side h2{font-size:15px;margin:0 0 10px;color:#111827}
.side ul{margin:0;padding:0;list-style:none}
.side li{margin:0 0 10px;font-size:15px}
.side a{text-decoration:none}
.side a:hover{text-decoration:underline}
.empty{color:#4b5563;text-align:center;padding:32px 0}
.empty p{margin:0 0 8px}
.empty-state{text-align:center;padding:40px 32px}
.empty-state h2{margin:0 0 8px;font-size:22px;color:#111827}
.empty-state p{margin:0;color:#4b5563}
.site-footer{padding:24px 0;color:#6b7280;font-size:14px;border-top:1px solid #e5e7eb;background:#fff}
.error{text-align:center;padding:64px 0}
.error h1{font-size:28px;margin:0 0 8px}
.email-page{max-width:600px;padding-top:40px;padding-bottom:56px}
.email-page h1{font-size:26px;line-height:1.25;margin:0 0 12px;color:#111827}
.email-page form{margin:20px 0}
.email-note{background:#fff7ed;border:1px solid #fdba74;color:#7c2d12;border-radius:8px;padding:10px 14px}
.email-saved{background:#ecfdf5;border:1px solid #6ee7b7;color:#065f46;border-radius:8px;padding:10px 14px;font-weight:600}
.email-primary{border:0;border-radius:8px;padding:12px 22px;background:var(--brand);color:var(--on-brand);font:inherit;font-weight:600;cursor:pointer}
.email-primary:focus-visible,.email-choices input:focus-visible{outline:3px solid var(--brand-ink);outline-offset:2px}
.email-topic{border:1px solid #e5e7eb;border-radius:12px;background:#fff;padding:14px 18px;margin:0 0 14px}
.email-topic legend{font-weight:600;color:#111827;padding:0 6px}
.email-hint{color:#4b5563;font-size:15px;margin:4px 0 8px}
.email-choices{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:8px 24px}
.email-choices li{display:flex;align-items:center;gap:8px;min-height:32px}
.email-choices input{width:20px;height:20px;accent-color:var(--brand)}
`;
