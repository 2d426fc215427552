-- Every process keeps the channel's active table in memory (src/app/table-cache.ts). Any change to
-- a game_table row, by any process or by hand, tells every listener which channel to forget.
CREATE FUNCTION notify_game_table_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('game_table_change', OLD.channel_id);
  ELSE
    PERFORM pg_notify('game_table_change', NEW.channel_id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER game_table_change
  AFTER INSERT OR UPDATE OR DELETE ON game_table
  FOR EACH ROW EXECUTE FUNCTION notify_game_table_change();
