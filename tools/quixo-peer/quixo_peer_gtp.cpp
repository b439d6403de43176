// GTP front end for the MCTS bot of Thanduriel/quixo (github.com/Thanduriel/quixo), so that
// tessera's tournaments can play it as an external `protocol = "gtp"` engine.
//
// This file is tessera's glue, not the peer's code: it only includes the peer's headers and
// links its board.cpp and random.cpp (built by tools/quixo-peer/build.sh from a pinned commit
// in a scratch folder outside the repository).
//
// Protocol (what tessera sends for Quixo, src/protocol/quixo.rs): colours `x` / `o`, moves as
// tessera's notation `a3-e3` (take the cube at a3, push it in at e3; `a3e3` accepted too):
// column letter a..e = the peer's x 0..4, row digit 1..5 (top to bottom) = the peer's y 0..4.
// Commands: protocol_version, name, version, known_command, list_commands, boardsize (5 only),
// clear_board, komi (ignored), play, genmove, undo, showboard, time_settings, time_left
// (ignored), quit.
//
// Time: the peer's MCTSBot<MaxDepth, TurnTime> fixes its time per move at compile time (a
// template argument, checked every 5 simulations). `--ms N` picks one of the compiled-in
// times (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000); `time_settings 0 S 1` (one
// stone per S-second byo-yomi period, what tessera sends for `st = S`) picks the largest
// compiled-in time <= S seconds.
//
// Rules: the wrapper keeps the peer's own Game::Board, whose Move remembers the board before
// the last move, so the bot's root keeps the peer's 2-ply repeat ban (it never plays the move
// that brings back the board as it was before the opponent's last move). That restricts only
// the peer's own choice (every move it plays is legal under tessera's rules). If the ban
// leaves the root with no move at all, the wrapper plays the first legal move. The peer's
// Board::Winner scores a move that completes lines of both symbols by counting lines (more
// lines wins, equal is a draw); tessera's referee applies the published rule (the mover
// loses) and its own draw rules (third repetition, ply cap). The wrapper never adjudicates.
//
// `--log FILE` appends one line per genmove: ply, milliseconds, simulations.
// `--seed N` seeds the peer's global generator (default: the peer's std::random_device seed).

#include "bots/mctsbot.hpp"
#include "game/board.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace Game;

namespace {

constexpr unsigned kDepth = 5; // the peer's default MaxDepth (its GUI and league use 5)

// A bot per compiled-in time. The bots live in static storage: the peer's StackAllocator
// leaves its stack pointer uninitialised in its constructor, and static storage is
// zero-initialised first, which makes the first allocation open a fresh block.
template <unsigned Ms> Bots::MCTSBot<kDepth, Ms>& bot_for() {
    static Bots::MCTSBot<kDepth, Ms> bot;
    return bot;
}

const unsigned kTimes[] = {10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000};

struct Searched {
    const Action* action;
    long sims;
};

template <unsigned Ms> Searched search_with(const Board& board, CubeState me) {
    auto& bot = bot_for<Ms>();
    bot.SetSymbol(me);
    auto root = bot.BuildTree(board);
    const Action* best = nullptr;
    int most = -1;
    for (int i = 0; i < root.numChilds; ++i) {
        // Step's choice: the child with the most simulations (first one on ties).
        if (root.childs[i].numSimulations > most) {
            most = root.childs[i].numSimulations;
            best = root.childs[i].action;
        }
    }
    return {best, static_cast<long>(root.numSimulations) - 1};
}

Searched search(unsigned ms, const Board& board, CubeState me) {
    switch (ms) {
    case 10: return search_with<10>(board, me);
    case 20: return search_with<20>(board, me);
    case 25: return search_with<25>(board, me);
    case 50: return search_with<50>(board, me);
    case 100: return search_with<100>(board, me);
    case 200: return search_with<200>(board, me);
    case 250: return search_with<250>(board, me);
    case 500: return search_with<500>(board, me);
    case 1000: return search_with<1000>(board, me);
    case 2000: return search_with<2000>(board, me);
    default: return search_with<5000>(board, me);
    }
}

bool compiled_in(unsigned ms) {
    for (unsigned t : kTimes)
        if (t == ms) return true;
    return false;
}

CubeState other(CubeState c) { return c == Cross ? Circle : Cross; }

bool parse_colour(const std::string& s, CubeState& c) {
    if (s == "x" || s == "X" || s == "b" || s == "black") { c = Cross; return true; }
    if (s == "o" || s == "O" || s == "w" || s == "white") { c = Circle; return true; }
    return false;
}

bool parse_cell(const char* s, int& x, int& y) {
    if (s[0] < 'a' || s[0] > 'e' || s[1] < '1' || s[1] > '5') return false;
    x = s[0] - 'a';
    y = s[1] - '1';
    return true;
}

// `a3-e3` or `a3e3` (lower or upper case) -> one of the peer's actions.
const Action* parse_move(std::string text) {
    for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (text.size() == 5 && text[2] == '-') text.erase(2, 1);
    if (text.size() != 4) return nullptr;
    int sx, sy, dx, dy;
    if (!parse_cell(text.c_str(), sx, sy) || !parse_cell(text.c_str() + 2, dx, dy)) return nullptr;
    for (const Action& a : Board::ACTIONS)
        if (a.srcX == sx && a.srcY == sy && a.dstX == dx && a.dstY == dy) return &a;
    return nullptr;
}

std::string move_text(const Action& a) {
    std::string s;
    s += static_cast<char>('a' + a.srcX);
    s += static_cast<char>('1' + a.srcY);
    s += '-';
    s += static_cast<char>('a' + a.dstX);
    s += static_cast<char>('1' + a.dstY);
    return s;
}

struct Match {
    Board board;
    CubeState to_move = Cross;
    std::vector<std::pair<Board, CubeState>> history; // for undo
    int ply = 0;

    void clear() {
        board = Board();
        to_move = Cross;
        history.clear();
        ply = 0;
    }

    void play(const Action& a, CubeState who) {
        history.emplace_back(board, to_move);
        board.Move(a, who);
        to_move = other(who);
        ++ply;
    }
};

void respond(bool ok, const std::string& id, const std::string& text) {
    std::cout << (ok ? '=' : '?') << id << (text.empty() ? "" : " ") << text << "\n\n" << std::flush;
}

} // namespace

int main(int argc, char** argv) {
    unsigned ms = 100;
    std::unique_ptr<std::ofstream> log;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--ms" && i + 1 < argc) {
            char* end = nullptr;
            unsigned long v = std::strtoul(argv[++i], &end, 10);
            if (*end != '\0' || !compiled_in(static_cast<unsigned>(v))) {
                std::fprintf(stderr, "quixo-peer-gtp: --ms %s is not one of 10 20 25 50 100 200 250 500 1000 2000 5000\n", argv[i]);
                return 2;
            }
            ms = static_cast<unsigned>(v);
        } else if (a == "--seed" && i + 1 < argc) {
            Utils::g_random.seed(static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 10)));
        } else if (a == "--log" && i + 1 < argc) {
            log = std::make_unique<std::ofstream>(argv[++i], std::ios::app);
            if (!*log) {
                std::fprintf(stderr, "quixo-peer-gtp: cannot open log file %s\n", argv[i]);
                return 2;
            }
        } else {
            std::fprintf(stderr, "quixo-peer-gtp: unknown argument '%s' (usage: quixo-peer-gtp [--ms N] [--seed S] [--log FILE])\n", argv[i]);
            return 2;
        }
    }

    Match game;
    std::string line;
    const char* commands[] = {"protocol_version", "name", "version", "known_command", "list_commands",
                              "boardsize", "clear_board", "komi", "play", "genmove", "undo",
                              "showboard", "time_settings", "time_left", "quit"};
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::vector<std::string> w;
        for (std::string t; in >> t;) w.push_back(t);
        if (w.empty() || w[0][0] == '#') continue;
        std::string id;
        if (std::isdigit(static_cast<unsigned char>(w[0][0]))) {
            id = w[0];
            w.erase(w.begin());
            if (w.empty()) continue;
        }
        const std::string& cmd = w[0];
        if (cmd == "protocol_version") respond(true, id, "2");
        else if (cmd == "name") respond(true, id, "Thanduriel-quixo-MCTSBot");
        else if (cmd == "version") respond(true, id, "8e0c47d MaxDepth 5 TurnTime " + std::to_string(ms));
        else if (cmd == "known_command") {
            bool known = false;
            for (const char* c : commands) known = known || (w.size() > 1 && w[1] == c);
            respond(true, id, known ? "true" : "false");
        } else if (cmd == "list_commands") {
            std::string all;
            for (const char* c : commands) { if (!all.empty()) all += "\n"; all += c; }
            respond(true, id, all);
        } else if (cmd == "boardsize") {
            if (w.size() > 1 && w[1] == "5") respond(true, id, "");
            else respond(false, id, "unacceptable size");
        } else if (cmd == "clear_board") { game.clear(); respond(true, id, ""); }
        else if (cmd == "komi" || cmd == "time_left") respond(true, id, "");
        else if (cmd == "time_settings") {
            // time_settings MAIN BYO STONES: one stone per period is a fixed time per move.
            double byo = w.size() > 2 ? std::atof(w[2].c_str()) : 0.0;
            int stones = w.size() > 3 ? std::atoi(w[3].c_str()) : 0;
            if (stones == 1 && byo > 0) {
                unsigned best = kTimes[0];
                for (unsigned t : kTimes)
                    if (t <= byo * 1000.0) best = t;
                ms = best;
            }
            respond(true, id, "");
        } else if (cmd == "play") {
            CubeState who;
            const Action* a = w.size() > 2 ? parse_move(w[2]) : nullptr;
            if (w.size() < 3 || !parse_colour(w[1], who)) respond(false, id, "syntax error");
            else if (!a) respond(false, id, "illegal move");
            else if (game.board.Get(a->srcX, a->srcY) == other(who)) respond(false, id, "illegal move");
            else { game.play(*a, who); respond(true, id, ""); }
        } else if (cmd == "genmove") {
            CubeState who;
            if (w.size() < 2 || !parse_colour(w[1], who)) { respond(false, id, "syntax error"); continue; }
            auto t0 = std::chrono::steady_clock::now();
            Searched s = search(ms, game.board, who);
            double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            const Action* a = s.action;
            if (!a) {
                // The repeat ban emptied the root: any legal move.
                for (const Action& b : Board::ACTIONS)
                    if (game.board.Get(b.srcX, b.srcY) != other(who)) { a = &b; break; }
            }
            if (log) *log << "ply " << game.ply + 1 << " ms " << took << " sims " << s.sims << std::endl;
            game.play(*a, who);
            respond(true, id, move_text(*a));
        } else if (cmd == "undo") {
            if (game.history.empty()) respond(false, id, "cannot undo");
            else {
                game.board = game.history.back().first;
                game.to_move = game.history.back().second;
                game.history.pop_back();
                --game.ply;
                respond(true, id, "");
            }
        } else if (cmd == "showboard") {
            std::ostringstream b;
            b << "\n";
            game.board.Print(b);
            std::string s = b.str();
            if (!s.empty() && s.back() == '\n') s.pop_back();
            respond(true, id, s);
        } else if (cmd == "quit") { respond(true, id, ""); return 0; }
        else respond(false, id, "unknown command");
    }
    return 0;
}
