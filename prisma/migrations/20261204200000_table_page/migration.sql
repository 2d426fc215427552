-- The campaign page (src/web/). A table's page links carry the generation they were made in;
-- `/table page revoke:true` raises it, and every older link stops working at once.
CREATE TABLE "table_page" (
    "table_id" INTEGER NOT NULL,
    "link_generation" INTEGER NOT NULL DEFAULT 0,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "table_page_pkey" PRIMARY KEY ("table_id")
);

ALTER TABLE "table_page" ADD CONSTRAINT "table_page_table_id_fkey" FOREIGN KEY ("table_id")
  REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An open page updates live: every change at a table (a log entry, a flow's state, a sheet, trust,
-- reserve, aspects, damage, the table row) tells the page's listener which table changed. The
-- payload is the table id alone, never what changed. PostgreSQL folds repeated notifications with
-- the same payload within one transaction into one.
CREATE FUNCTION notify_table_page_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('table_page_change', OLD.table_id::text);
  ELSE
    PERFORM pg_notify('table_page_change', NEW.table_id::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION notify_table_page_row_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('table_page_change', NEW.id::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER table_page_log AFTER INSERT ON log_entry
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_flow AFTER INSERT OR UPDATE ON flow
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_character AFTER INSERT OR UPDATE ON character
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_trust AFTER INSERT OR UPDATE OR DELETE ON trust_link
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_reserve AFTER INSERT OR UPDATE OR DELETE ON reserve_pool
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_aspect AFTER INSERT OR UPDATE OR DELETE ON aspect
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_damage AFTER INSERT OR UPDATE OR DELETE ON damage_entry
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_generation AFTER INSERT OR UPDATE ON table_page
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_change();
CREATE TRIGGER table_page_table AFTER UPDATE ON game_table
  FOR EACH ROW EXECUTE FUNCTION notify_table_page_row_change();
