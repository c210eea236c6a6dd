-- A notice a workflow's send step added (a push from a workflow adds its notice as a push does).
ALTER TYPE "NoticeSource" ADD VALUE 'workflow';
