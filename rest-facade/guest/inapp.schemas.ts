import { z } from 'zod';
import { MAX_BUTTONS, MAX_CAROUSEL_OPTIONS, MAX_SCREENS } from '../../src/domain/inapp/carousel.js';
import { CHECKIN_SPACING_SECONDS } from '../../src/domain/inapp/facts.js';
import {
  MAX_DECLARED_LINKS,
  MAX_DECLARED_LINKS_BYTES,
  MAX_DIGEST,
  MAX_LINK_SET_VERSIONS,
  MAX_LINK_SETS,
  linksBytes,
} from '../../src/domain/inapp/links.js';
import { ACTIONS, MAX_RECEIPT_PATH } from '../../src/domain/inapp/receipts.js';
import { Span } from '../shapes/content.js';
import { MAX_STEP_QUESTIONS, MAX_STEPS, otherOption } from '../../src/domain/surveys/model.js';

// In-app messages on the wire: the links an app declares, the check-in and what it answers, a
// message opened by a link, and receipts.

const DeclaredLink = z
  .object({
    name: z.string().min(1).max(200).describe('For staff'),
    path: z.string().min(1).max(500).describe('A template such as /offers/{offer_id}: a product path in a message must match one'),
    web_url: z.string().max(2000).optional().describe('The page on the web, https'),
    screen: z.string().max(100).optional().describe('The screen it opens'),
  })
  .meta({ id: 'DeclaredLink' });

export const AppLinksReport = z
  .object({
    app_version: z.string().min(1).max(100),
    digest: z
      .string()
      .min(1)
      .max(MAX_DIGEST)
      .describe('The digest of `links`, as the app computes it: a check-in names it in `links_digest`'),
    links: z
      .array(DeclaredLink)
      .max(MAX_DECLARED_LINKS)
      .refine((links) => linksBytes(links) <= MAX_DECLARED_LINKS_BYTES, `must be at most ${MAX_DECLARED_LINKS_BYTES} bytes as JSON`)
      .describe(`At most ${MAX_DECLARED_LINKS} links, and at most ${MAX_DECLARED_LINKS_BYTES / 1024} KiB as JSON`),
  })
  .meta({
    id: 'AppLinksReport',
    description: `An app-mode keeps the ${MAX_LINK_SETS} digests reported last (a new one drops the one reported longest ago), each naming the ${MAX_LINK_SET_VERSIONS} app versions that reported it last; a check-in naming a digest no longer kept answers \`sendLinks\`, and the app reports it again`,
  });

const Word = z.string().describe('An enumerated word: one the app does not know is read as `unknown` and drawn as the default');

const ContentBlock = z
  .looseObject({
    type: z
      .string()
      .describe('heading, paragraph, list, numbered_list, image, callout or link; a reader that does not know the type skips the block'),
    level: z.number().int().min(1).max(3).optional(),
    spans: z.array(Span).optional(),
    items: z.array(z.object({ spans: z.array(Span) })).optional(),
    imageUrl: z.string().optional(),
    alt: z.string().optional(),
    label: z.string().optional(),
    link: z
      .string()
      .optional()
      .describe("An https address (open it in the browser) or a path in the product (open it only when the app's allow-list names it)"),
    size: Word.optional(),
    color: z.string().optional().describe('A colour token word or #rrggbb'),
    align: Word.optional(),
    weight: Word.optional(),
    tone: Word.optional(),
    emoji: z.string().optional(),
    aspect: Word.optional(),
    fit: Word.optional(),
    shape: Word.optional(),
    style: Word.optional(),
  })
  .describe('A content block: only the members its type names are set; formatting members (size to style) in posts and carousels only')
  .meta({ id: 'ContentBlock' });

const Image = z
  .looseObject({
    url: z.string(),
    alt: z.string().optional(),
    size: Word.optional(),
    aspect: Word.optional(),
    fit: Word.optional(),
    shape: Word.optional(),
  })
  .meta({ id: 'InAppImage' });
const Style = z
  .looseObject({ accent: z.string().optional(), corner: Word.optional(), buttonShape: Word.optional(), textScale: Word.optional() })
  .meta({ id: 'InAppStyle' });
const Button = z
  .looseObject({
    id: z.string(),
    label: z.string(),
    do: Word.optional().describe("The action; an unknown one goes where the screen's next goes"),
    style: Word.optional(),
    screen: z.string().optional().describe("A screen id or `end`; left out: the screen's next"),
    link: z.string().optional(),
    permission: Word.optional(),
  })
  .meta({ id: 'InAppButton' });

const Banner = z
  .looseObject({
    blocks: z.array(ContentBlock),
    link: z.string().optional(),
    position: Word.optional(),
    dismissible: z.boolean().optional(),
  })
  .meta({ id: 'InAppBanner' });
const Post = z
  .looseObject({
    blocks: z.array(ContentBlock),
    image: Image.optional(),
    buttons: z.array(Button).max(3).optional(),
    style: Style.optional(),
  })
  .meta({ id: 'InAppPost' });
const Screen = z
  .looseObject({
    id: z.string(),
    blocks: z.array(ContentBlock),
    layout: Word.optional(),
    image: Image.optional(),
    align: Word.optional(),
    valign: Word.optional(),
    background: z.looseObject({}).optional().describe('kind, color, color2, angle, imageUrl, scrim'),
    buttons: z.array(Button).max(MAX_BUTTONS).optional(),
    choice: z
      .looseObject({
        options: z.array(z.looseObject({ id: z.string(), label: z.string(), emoji: z.string().optional(), next: z.string().optional() })),
        multiple: z.boolean().optional(),
      })
      .optional(),
    next: z.string().optional().describe('A screen id or `end`; left out: the following screen (the end after the last)'),
    style: Style.optional(),
  })
  .meta({ id: 'CarouselScreen' });
const Carousel = z
  .looseObject({
    screens: z.array(Screen).min(1).max(MAX_SCREENS),
    start: z.string().optional(),
    progress: Word.optional(),
    skip: z.boolean().optional(),
    presentation: Word.optional(),
    locked: z.boolean().optional(),
    style: Style.optional(),
  })
  .meta({ id: 'InAppCarousel' });

const SurveyQuestion = z
  .looseObject({
    id: z.string(),
    type: z.string().describe('rating, nps, single, multiple, dropdown, short_text or long_text'),
    title: z.string(),
    description: z.string().optional(),
    required: z.boolean().optional().describe('Answered before the person goes on; left out: true'),
    display: Word.optional().describe('Rating: drawn as numbers, stars or emoji'),
    min: z.number().int().optional().describe('Rating: the low end, 0 or 1'),
    max: z.number().int().optional().describe('Rating: the high end, up to 10 (5 for stars and emoji)'),
    lowLabel: z.string().optional(),
    highLabel: z.string().optional(),
    options: z
      .array(z.object({ id: z.string(), label: z.string() }))
      .optional()
      .describe(`Choices and dropdowns; the option whose id is \`${otherOption}\` (otherOption) takes the person's own words`),
    placeholder: z.string().optional(),
    attribute: z.string().optional().describe('The contact attribute the answer is written to when the survey is submitted'),
  })
  .meta({ id: 'SurveyQuestion' });
const SurveyBranch = z
  .looseObject({
    question: z.string(),
    range: z
      .object({ min: z.number().int(), max: z.number().int() })
      .optional()
      .describe('Rating and NPS: the answer within it, ends included'),
    values: z.array(z.string()).optional().describe('Choices: one of these options picked'),
    to: z.string().describe('The step to go to'),
  })
  .meta({ id: 'SurveyBranch' });
const SurveyStep = z
  .looseObject({
    id: z.string(),
    thankYou: z.boolean().optional().describe('The thank-you step: where every path ends'),
    blocks: z.array(ContentBlock).optional(),
    questions: z.array(SurveyQuestion).max(MAX_STEP_QUESTIONS).optional(),
    branches: z.array(SurveyBranch).optional().describe('After the step, the first branch the answers match says where to go'),
    next: z.string().optional().describe('Where to go when no branch matches; left out: the following step'),
  })
  .meta({ id: 'SurveyStep' });
const Survey = z
  .looseObject({
    steps: z.array(SurveyStep).min(2).max(MAX_STEPS),
    nextLabel: z.string().optional(),
    submitLabel: z.string().optional(),
  })
  .describe('Steps of questions from the first, then the thank-you step: answers are sent as the person goes, then submitted')
  .meta({ id: 'InAppSurvey' });

export const InAppMessage = z
  .object({
    id: z.string().describe("What receipts name in `message_id` (a test copy's own id)"),
    kind: z.string().describe('banner, post, carousel or survey: the member that holds the content'),
    variant: z.string().describe('What receipts name in `variant`'),
    test: z.boolean().describe('A test copy staff sent to this test phone: its receipts carry test: true'),
    screens: z.array(z.string()).describe('The screens it is for (empty: any): hold it until one of them is on screen'),
    banner: Banner.optional(),
    post: Post.optional(),
    carousel: Carousel.optional(),
    survey: Survey.optional(),
  })
  .describe('Exactly one of banner, post, carousel, survey: the one its kind names')
  .meta({ id: 'InAppMessage' });

export const CheckinBody = z
  .object({
    app_version: z.string().min(1).max(100),
    platform: z.enum(['ios', 'android', 'web']),
    session_id: z.string().min(1).max(200).describe("The app's id for this time in front: one large message a session"),
    screen: z.string().max(100).optional().describe('The named route on screen, when known'),
    time_zone: z
      .string()
      .max(100)
      .optional()
      .describe("IANA zone, for quiet hours and sending windows; left out (or one the service does not know), the person's own, else UTC"),
    holds_for_screens: z
      .boolean()
      .optional()
      .describe('true when the app holds a message meant for some screens until one is on; without it such messages are never answered'),
    links_digest: z.string().min(1).max(MAX_DIGEST).optional().describe('The digest of the destinations the app declares (PUT /app-links)'),
  })
  .meta({ id: 'CheckinBody' });

export const Checkin = z
  .object({
    messages: z.array(InAppMessage).describe('In the order to show them: test copies first, then by priority'),
    unread: z.number().int().describe('Messenger parts the user has not read'),
    nextCheckinSeconds: z
      .number()
      .int()
      .describe(`The soonest to check in again (${CHECKIN_SPACING_SECONDS}; when throttled, the seconds left)`),
    throttled: z
      .boolean()
      .describe(`Sooner than ${CHECKIN_SPACING_SECONDS} seconds after the last check-in: answered from it, nothing looked at`),
    testPhone: z.boolean().describe("The user is one of staff's test phones"),
    unreadNotices: z.number().int(),
    sendLinks: z.boolean().describe('The service has not been sent the declared links the digest names: PUT /app-links'),
  })
  .meta({ id: 'Checkin' });

export const OpenMessageBody = z.object({ session_id: z.string().min(1).max(200) }).meta({ id: 'OpenMessageBody' });

export const MessageParams = z.object({ message_id: z.string().min(1).max(100) });

export const ReceiptBody = z
  .object({
    message_id: z.string().min(1).max(100),
    variant: z.string().min(1).max(40),
    action: z.enum(ACTIONS),
    session_id: z.string().max(200).optional(),
    screen: z
      .string()
      .max(64)
      .optional()
      .describe('Carousel receipts: the screen answered, whose button was tapped, or where it ended or closed'),
    button: z.string().max(64).optional().describe('The button tapped, for clicked'),
    link: z.string().max(2000).optional().describe('What was tapped, for clicked'),
    answers: z
      .array(z.string().min(1).max(64))
      .optional()
      .describe(`Options picked, for answered: at most ${MAX_CAROUSEL_OPTIONS} (MaxCarouselOptions)`),
    path: z
      .array(z.string().max(64))
      .optional()
      .describe(`Screen ids seen so far, in order; beyond ${MAX_RECEIPT_PATH} (MaxReceiptPath) the first ones are kept`),
    test: z.boolean().optional().describe("About a test copy: message_id is the test's"),
  })
  .meta({ id: 'ReceiptBody' });
