// npm run bench: each benchmark beside its floor, measured in the same run on this machine.
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { benchEvents, makeEventsApp, printEvents } from './events.js';
import { benchGuest, makeGuestApp, printGuest } from './guest.js';
import { benchCrm, printCrm } from './crm.js';
import { benchStartup, printStartup } from './startup.js';

process.exit(
  await withBenchDatabase('crm_bench', async ({ url, adminUrl }) => {
    const app = await makeEventsApp(url, BENCH_SECRET_KEY);
    printEvents(await benchEvents(adminUrl, BENCH_SECRET_KEY, app.serverKeys, 'crm_bench'));

    // The guest path (bench/guest.ts): consent read and one-event ingest beside a bare node:http + pg read.
    printGuest(await benchGuest(url, BENCH_SECRET_KEY, await makeGuestApp(url, BENCH_SECRET_KEY)));

    printStartup(await benchStartup({ databaseUrl: url, secretKey: BENCH_SECRET_KEY, appKey: app.appKey }));
    printCrm(await benchCrm({ databaseUrl: url, secretKey: BENCH_SECRET_KEY, appKey: app.appKey }));

    // Live fan-out (bench/live.ts): two server processes, 1,000 and 5,000 subscribers, beside a bare ws broadcast.
    await (await import('./live.js')).benchLive(url, BENCH_SECRET_KEY);

    // Webhook delivery (bench/webhooks.ts): events through the outbox and the webhook process to a local https receiver, beside a plain loop of the same signed posts.
    const webhooks = await import('./webhooks.js');
    webhooks.printWebhooks(await webhooks.benchWebhooks(url, BENCH_SECRET_KEY));

    // Help-center search (bench/help-search.ts): 10,000 articles in three languages at a steady rate, beside the same full-text statement through pg.
    const help = await import('./help-search.js');
    help.printHelpSearch(await help.benchHelpSearch(url));

    // Long poll (bench/long-poll.ts): 10,000 conversation waits held on one server process, then a staff reply to each, beside a bare node:http server holding as many.
    await (await import('./long-poll.js')).benchLongPoll(url, BENCH_SECRET_KEY);

    // Push fan-out (bench/push.ts): one push to 100,000 devices (BENCH_PUSH_DEVICES for fewer) through the APNs stand-in by the push-send process, beside a plain loop of the same HTTP/2 posts.
    const push = await import('./push.js');
    push.printPush(await push.benchPush(url, BENCH_SECRET_KEY));

    // Email fan-out (bench/email.ts): one email to 100,000 people (BENCH_EMAIL_PEOPLE for fewer) through SMTP by the email-send process, restarted halfway, on the embedded engine and (TEMPORAL_ADDRESS set; else skipped, saying so) on Temporal with its worker in a process of its own, beside nodemailer from a plain loop.
    const email = await import('./email.js');
    email.printEmail(await email.benchEmail(url, BENCH_SECRET_KEY));

    // Workflows (bench/workflows.ts): 100,000 people (BENCH_WORKFLOW_PEOPLE for fewer) through wait 60 s, branch and notice on the embedded engine on a controlled clock, beside the same state changes as plain SQL in batches.
    const workflows = await import('./workflows.js');
    workflows.printWorkflows(await workflows.benchWorkflows(url, BENCH_SECRET_KEY));

    // Fairness (bench/fairness.ts): tenant A's flood of 160 posts that never answer beside tenant B's deliveries and snooze, on a server process of its own.
    const fairness = await import('./fairness.js');
    fairness.printFairness(await fairness.benchFairness(adminUrl, BENCH_SECRET_KEY));

    // Check-in (bench/checkin.ts): 100,000 contacts and 200 live messages at a steady 1,000 requests/s, beside the same credential check answering a fixed list.
    const checkin = await import('./checkin.js');
    checkin.printCheckin(await checkin.benchCheckin(url));
  }),
);
