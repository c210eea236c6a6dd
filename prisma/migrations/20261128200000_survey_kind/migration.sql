-- Surveys are one more kind of in-app message.
ALTER TYPE "InAppKind" ADD VALUE 'survey';
