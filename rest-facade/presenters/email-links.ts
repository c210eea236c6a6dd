import type { z } from 'zod';
import type { EmailLists as Kept } from '../../src/domain/email/leave.js';
import type { TopicPreference } from '../../src/domain/preferences/read.js';
import type { EmailLists } from '../public/email-links.schemas.js';

const topicOf = ({ topic, channels }: TopicPreference) => ({
  topic: topic.key,
  name: topic.name,
  description: topic.description,
  subscribed: channels[0]?.subscribed ?? false,
});

export const presentEmailLists = (l: Kept): z.output<typeof EmailLists> => ({
  topic: l.topic ? topicOf(l.topic) : null,
  subscribed: l.subscribed,
  address: l.address,
  all_off: l.preferences.allOff,
  topics: l.preferences.topics.map(topicOf),
  test: l.test,
});
