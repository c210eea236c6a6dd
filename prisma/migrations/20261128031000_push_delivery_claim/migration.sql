-- Which attempt of a send's step claimed a device, and whether its push had left the server when
-- the step last said so: a step that lost the answer to its own claim (a cut connection) knows its
-- rows again, and a device claimed by a step that stopped is counted as sent only when its push had
-- left; one claimed and never posted is sent by the next step.
ALTER TABLE "push_delivery" ADD COLUMN "claim" TEXT,
ADD COLUMN "posted" BOOLEAN NOT NULL DEFAULT false;
